"""gateway.py: the team's gateway in front of the model server (one URL for every tool). Request coalescing: identical requests in flight share one reply."""
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
import hashlib
import threading

# Request coalescing (like our CDN): identical requests in flight share one upstream call and one reply.
IN_FLIGHT = {}
LOCK = threading.Lock()


def completion(handler, body):
    key = hashlib.sha256(body).hexdigest()
    with LOCK:
        entry = IN_FLIGHT.get(key)
        leader = entry is None
        if leader:
            entry = IN_FLIGHT[key] = {"done": threading.Event(), "reply": None, "waiters": 0}
        else:
            entry["waiters"] += 1
    if not leader:
        entry["done"].wait(130)
        print("coalesced one request into an identical one in flight", flush=True)
        return entry["reply"]
    try:
        entry["reply"] = handler._upstream(body)
    finally:
        entry["done"].set()
        with LOCK:
            IN_FLIGHT.pop(key, None)
    return entry["reply"]



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
