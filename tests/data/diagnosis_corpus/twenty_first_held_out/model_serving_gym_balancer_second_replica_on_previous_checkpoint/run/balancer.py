"""Round-robin balancer in front of our model replicas: one address for Gym, the load spread over the replicas.

    python balancer.py --port 0 --ready-file FILE URL [URL ...]
"""
import argparse
import itertools
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--ready-file")
parser.add_argument("upstreams", nargs="+")
args = parser.parse_args()
ROTATION = itertools.cycle([url.rstrip("/").removesuffix("/v1") for url in args.upstreams])
LOCK = threading.Lock()
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Handler(BaseHTTPRequestHandler):
    def forward(self, body=None):
        with LOCK:
            upstream = next(ROTATION)
        headers = {k: v for k, v in self.headers.items() if k.lower() in ("content-type", "authorization")}
        request = urllib.request.Request(upstream + self.path, data=body, method=self.command, headers=headers)
        try:
            with OPENER.open(request, timeout=600) as answer:
                status, data, kind = answer.status, answer.read(), answer.headers.get("Content-Type")
        except urllib.error.HTTPError as error:
            status, data, kind = error.code, error.read(), error.headers.get("Content-Type")
        self.send_response(status)
        self.send_header("Content-Type", kind or "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        print(f"{self.command} {self.path} -> {upstream} {status}", flush=True)

    def do_GET(self):
        self.forward()

    def do_POST(self):
        self.forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
print(f"balancing over {len(args.upstreams)} replicas on port {server.server_port}", flush=True)
if args.ready_file:
    with open(args.ready_file, "w") as ready:
        ready.write(f"http://127.0.0.1:{server.server_port}/v1\n")
server.serve_forever()
