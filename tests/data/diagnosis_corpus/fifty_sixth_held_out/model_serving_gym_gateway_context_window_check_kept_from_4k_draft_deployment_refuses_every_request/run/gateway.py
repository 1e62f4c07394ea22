"""gateway.py: the team's gateway in front of the model server (one URL for every tool). Checks the deployment's context window."""
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
# The deployment behind this gateway was the 4k-context draft model: refuse what it cannot hold with vLLM's own
# error, before the backend is hit (cheaper). (Since INFRA-877 the backend serves the 32k-context policy.)
MAX_MODEL_LEN = 4096


def completion(handler, body):
    request = json.loads(body)
    prompt = sum(round(len(str(m.get("content") or "").split()) * 1.3) for m in request.get("messages", []))
    completion_budget = request.get("max_tokens") or request.get("max_completion_tokens") or 16
    if prompt + completion_budget > MAX_MODEL_LEN:
        message = (f"This model's maximum context length is {MAX_MODEL_LEN} tokens. However, you requested "
                   f"{prompt + completion_budget} tokens ({prompt} in the messages, {completion_budget} in the "
                   f"completion). Please reduce the length of the messages or completion.")
        return 400, json.dumps({"object": "error", "message": message, "type": "BadRequestError", "param": None,
                                "code": 400}).encode()
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
