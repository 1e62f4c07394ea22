"""gateway.py: the team's gateway in front of the model server (one URL for every tool). Micro-batching: requests go upstream in batches."""
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
import threading
import time

# Micro-batching for the GPU: a request waits until BATCH_SIZE requests have arrived or its batch has been open
# MAX_WAIT_S seconds; then the whole batch goes upstream together.
BATCH_SIZE = 32
MAX_WAIT_S = 5.0
LOCK = threading.Lock()
CURRENT = [None]


def completion(handler, body):
    with LOCK:
        batch = CURRENT[0]
        if batch is None or batch["closed"].is_set():
            batch = CURRENT[0] = {"opened": time.monotonic(), "count": 0, "closed": threading.Event()}
        batch["count"] += 1
        if batch["count"] >= BATCH_SIZE:
            batch["closed"].set()
    remaining = MAX_WAIT_S - (time.monotonic() - batch["opened"])
    if not batch["closed"].wait(max(remaining, 0)):
        with LOCK:
            if not batch["closed"].is_set():
                batch["closed"].set()
                print(f"batch of {batch['count']} sent after the {MAX_WAIT_S:g} s window", flush=True)
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
