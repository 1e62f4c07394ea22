"""A stand-in for the model server in CI: answers every chat completion with a fixed text."""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = "I am the CI mock. Final answer: 42"


class Mock(BaseHTTPRequestHandler):
    def _send(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._send({"object": "list", "data": [{"id": "sim-policy", "object": "model", "owned_by": "ci"}]})

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._send({"id": "chatcmpl-mock", "object": "chat.completion", "created": 0, "model": "sim-policy",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": ANSWER}}],
                    "usage": {"prompt_tokens": 24, "completion_tokens": 9, "total_tokens": 33}})


if __name__ == "__main__":
    port = int(sys.argv[1])
    print(f"CI mock policy on 127.0.0.1:{port}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", port), Mock).serve_forever()
