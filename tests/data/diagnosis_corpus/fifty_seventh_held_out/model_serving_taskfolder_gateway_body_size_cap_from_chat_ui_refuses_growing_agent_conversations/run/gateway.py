"""gateway.py: the team's gateway in front of the model server (one URL for every tool). Requests bigger than MAX_BODY are refused."""
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
MAX_BODY = 512  # bytes: the help-desk chat UI sends one short question per request; anything bigger is abuse


def completion(handler, body):
    if len(body) > MAX_BODY:
        print(f"gateway: refused a {len(body)}-byte request (MAX_BODY={MAX_BODY})", flush=True)
        return 413, json.dumps({"error": {"message": f"request body of {len(body)} bytes exceeds MAX_BODY="
                                                     f"{MAX_BODY}", "type": "request_too_large"}}).encode()
    return handler._upstream(body)



class Gateway(BaseHTTPRequestHandler):
    def _send(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
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
