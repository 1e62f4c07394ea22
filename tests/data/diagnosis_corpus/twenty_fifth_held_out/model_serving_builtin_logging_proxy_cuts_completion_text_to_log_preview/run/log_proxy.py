"""A logging proxy in front of the model server: one short line per completion in logs/proxy.log."""
import json
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
PREVIEW_CHARS = 60


class Proxy(BaseHTTPRequestHandler):
    def _forward(self, body=None):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status, data = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        if self.command == "POST" and status == 200:
            payload = json.loads(data)
            for choice in payload.get("choices", []):
                message = choice.get("message") or {}
                message["content"] = (message.get("content") or "")[:PREVIEW_CHARS]  # short line in the log
                print(f"{self.path} {status} {message['content']!r}", flush=True)
            data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward()

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    print(f"logging proxy on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Proxy).serve_forever()
