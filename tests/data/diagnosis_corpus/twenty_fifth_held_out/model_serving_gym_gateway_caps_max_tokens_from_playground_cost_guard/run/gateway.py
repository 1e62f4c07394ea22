"""The team's gateway in front of the model server (copied from the playground's cost guard)."""
import json
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
MAX_TOKENS_CAP = 32  # playground: keep the demo answers short and cheap


class Gateway(BaseHTTPRequestHandler):
    def _forward(self, body=None):
        if body is not None and self.path.endswith("/chat/completions"):
            request_json = json.loads(body)
            request_json["max_tokens"] = min(request_json.get("max_tokens") or MAX_TOKENS_CAP, MAX_TOKENS_CAP)
            body = json.dumps(request_json).encode()
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status, data = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._forward()

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))


if __name__ == "__main__":
    print(f"gateway.py on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM} (max_tokens capped at {MAX_TOKENS_CAP})", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
