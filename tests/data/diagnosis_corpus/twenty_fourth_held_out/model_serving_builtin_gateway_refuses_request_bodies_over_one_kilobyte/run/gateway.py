"""The team's gateway in front of the model server (copied from the tokenizer service's)."""
import sys
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
MAX_BODY_BYTES = 1024  # bigger request bodies are refused (abuse protection)


class Gateway(BaseHTTPRequestHandler):
    def _forward(self, body=None):
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
        size = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(size)
        if size > MAX_BODY_BYTES:
            data = b'{"error": {"message": "request body too large", "code": 413}}'
            self.send_response(413)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self._forward(body)


if __name__ == "__main__":
    print(f"gateway on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM} (max body {MAX_BODY_BYTES} bytes)", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
