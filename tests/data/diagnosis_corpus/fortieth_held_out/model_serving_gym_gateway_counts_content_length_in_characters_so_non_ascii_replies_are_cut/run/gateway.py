"""gateway.py: the team's gateway in front of the model server (one URL for every tool). Readable UTF-8 request log."""
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
REQUEST_LOG = "requests.log"  # what went through, readable (UTF-8, not \u escapes)


def completion(handler, body):
    status, data = handler._upstream(body)
    text = json.dumps(json.loads(data), ensure_ascii=False)
    with open(REQUEST_LOG, "a", encoding="utf-8") as log:
        log.write(text[:300] + "\n")
    return status, text



class Gateway(BaseHTTPRequestHandler):
    def _send(self, status, data):
        if isinstance(data, str):  # a hook's text reply
            length, data = len(data), data.encode("utf-8")
        else:
            length = len(data)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(data)

    def _upstream(self, body=None):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def do_GET(self):
        self._send(*self._upstream())

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if not self.path.endswith("/chat/completions"):
            return self._send(*self._upstream(body))
        self._send(*completion(self, body))


if __name__ == "__main__":
    print(f"gateway.py on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
