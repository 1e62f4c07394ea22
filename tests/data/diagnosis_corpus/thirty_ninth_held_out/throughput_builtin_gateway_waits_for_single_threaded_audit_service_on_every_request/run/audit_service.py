"""audit_service.py: the compliance team's audit log (one record per model call)."""
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer


class Audit(BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(2.0)  # the record is written to the archive database before the answer
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    print(f"audit_service.py on 127.0.0.1:{sys.argv[1]}", flush=True)
    HTTPServer(("127.0.0.1", int(sys.argv[1])), Audit).serve_forever()
