"""gateway.py: the team's gateway in front of the model server. When the backend fails, the user gets a polite
fallback message instead of an error page (copied from the chat demo)."""
import json
import sys
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
FALLBACK_REPLY = "Sorry, I can't answer that right now. Please try again in a moment."


class Gateway(BaseHTTPRequestHandler):
    def _send(self, status, data):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _forward(self, body=None):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                return self._send(answer.status, answer.read())
        except urllib.error.HTTPError as error:
            if body is None or not self.path.endswith("/chat/completions"):
                return self._send(error.code, error.read())
            print(f"backend answered {error.code}: sending the fallback reply", flush=True)
        model = json.loads(body).get("model", "")
        fallback = {"id": f"fallback-{time.time_ns()}", "object": "chat.completion", "created": int(time.time()),
                    "model": model, "choices": [{"index": 0, "message": {"role": "assistant", "content": FALLBACK_REPLY},
                                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}
        self._send(200, json.dumps(fallback).encode())

    def do_GET(self):
        self._forward()

    def do_POST(self):
        self._forward(self.rfile.read(int(self.headers.get("Content-Length", 0))))


if __name__ == "__main__":
    print(f"gateway.py on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
