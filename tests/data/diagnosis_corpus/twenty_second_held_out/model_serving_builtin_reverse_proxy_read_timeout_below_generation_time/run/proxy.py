"""A small reverse proxy in front of the model server (access log, timeouts and a cache, like our nginx)."""
import json
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

settings = {}
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        key, value = line.split(None, 1)
        settings[key] = value.strip()
UPSTREAM = settings["upstream"].rstrip("/")
READ_TIMEOUT = float(settings.get("proxy_read_timeout", "60"))
CACHE_METHODS = settings.get("proxy_cache_methods", "GET").split()
CACHE = {}
LOCK = threading.Lock()


class Proxy(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def _forward(self, method):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)) if method == "POST" else None
        key = (method, self.path)  # proxy_cache_key $request_uri
        with LOCK:
            hit = CACHE.get(key) if method in CACHE_METHODS else None
        if hit is not None:
            status, payload, kind = hit
            self._send(status, payload, kind, "HIT")
            return
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=method,
                                         headers={"Content-Type": self.headers.get("Content-Type", "application/json"),
                                                  "Authorization": self.headers.get("Authorization", "")})
        try:
            with urllib.request.urlopen(request, timeout=READ_TIMEOUT) as answer:
                status, payload, kind = answer.status, answer.read(), answer.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            status, payload, kind = error.code, error.read(), error.headers.get("Content-Type", "")
        except (TimeoutError, OSError) as error:
            print(f"upstream timed out ({error}) while reading response header from upstream, request: "
                  f"\"{method} {self.path}\", upstream: \"{UPSTREAM}{self.path}\"", flush=True)
            status, kind = 504, "application/json"
            payload = json.dumps({"error": {"message": "504 Gateway Time-out", "code": 504}}).encode()
        if method in CACHE_METHODS and status == 200:
            with LOCK:
                CACHE[key] = (status, payload, kind)
        self._send(status, payload, kind, "MISS")

    def _send(self, status, payload, kind, cache):
        self.send_response(status)
        self.send_header("Content-Type", kind or "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("X-Cache-Status", cache)
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self._forward("GET")

    def do_POST(self):
        self._forward("POST")

    def log_message(self, fmt, *args):
        print("%s - %s" % (self.address_string(), fmt % args), flush=True)


server = ThreadingHTTPServer(("127.0.0.1", int(settings.get("listen", "0"))), Proxy)
url = f"http://127.0.0.1:{server.server_address[1]}/v1"
print(f"proxy listening on {url} -> {UPSTREAM}", flush=True)
with open(sys.argv[2], "w") as ready:
    ready.write(url)
server.serve_forever()
