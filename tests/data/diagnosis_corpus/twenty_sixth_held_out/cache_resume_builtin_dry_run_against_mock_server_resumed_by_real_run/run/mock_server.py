"""mock_server.py: an OpenAI-style stand-in for trying the eval scripts without a GPU (answers 'TODO')"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Mock(BaseHTTPRequestHandler):
    def _send(self, payload):
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._send({"object": "list", "data": [{"id": "sim-policy", "object": "model", "owned_by": "mock"}]})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        self._send({"id": "mock-1", "object": "chat.completion", "created": int(time.time()),
                    "model": body.get("model", "sim-policy"),
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": "TODO"},
                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})


if __name__ == "__main__":
    print(f"mock_server.py on 127.0.0.1:{sys.argv[1]}", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Mock).serve_forever()
