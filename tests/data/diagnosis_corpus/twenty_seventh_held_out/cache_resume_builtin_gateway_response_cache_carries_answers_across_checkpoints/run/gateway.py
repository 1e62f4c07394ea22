"""gateway.py: the team's gateway in front of the model server (one URL for every tool). Completions are cached on disk (CACHE_FILE)."""
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
CACHE_FILE = "response_cache.jsonl"  # completions kept on disk: re-running a report costs nothing
CACHE = {}
if os.path.exists(CACHE_FILE):
    for line in open(CACHE_FILE):
        entry = json.loads(line)
        CACHE[entry["key"]] = entry["body"]
print(f"gateway.py: {len(CACHE)} cached completions loaded from {CACHE_FILE}", flush=True)


def completion(handler, body):
    request = json.loads(body)
    key = hashlib.sha256(json.dumps({"model": request.get("model"), "messages": request.get("messages")},
                                    sort_keys=True).encode()).hexdigest()
    if key in CACHE:
        print(f"cache hit {key[:12]}", flush=True)
        return 200, CACHE[key].encode()
    status, data = handler._upstream(body)
    if status == 200:
        CACHE[key] = data.decode()
        with open(CACHE_FILE, "a") as cache:
            cache.write(json.dumps({"key": key, "body": data.decode()}) + "\n")
    return status, data



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
