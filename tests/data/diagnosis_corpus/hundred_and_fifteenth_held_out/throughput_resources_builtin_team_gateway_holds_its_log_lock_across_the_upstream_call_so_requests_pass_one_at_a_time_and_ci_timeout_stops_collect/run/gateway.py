"""gateway.py UPSTREAM PORT: the team's OpenAI-compatible gateway in front of the policy server.

Every request is written to gateway_requests.log, one line each, in order.
"""
import hashlib
import sys
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Lock

UPSTREAM, PORT = sys.argv[1].rstrip("/"), int(sys.argv[2])
lock = Lock()
print(f"gateway: upstream {UPSTREAM}, ready", flush=True)


class Handler(BaseHTTPRequestHandler):
    def forward(self, method, body=None):
        request = urllib.request.Request(UPSTREAM + self.path[len("/v1"):], data=body, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, answer.read()

    def reply(self, status, payload):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self.reply(*self.forward("GET"))

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        key = hashlib.sha256(body).hexdigest()[:12]
        # one writer at a time, so the request log lines never interleave
        with lock:
            started = time.time()
            status, payload = self.forward("POST", body)
            with open("gateway_requests.log", "a") as log:
                log.write(f"{key} {status} {time.time() - started:.2f}s\n")
        self.reply(status, payload)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
