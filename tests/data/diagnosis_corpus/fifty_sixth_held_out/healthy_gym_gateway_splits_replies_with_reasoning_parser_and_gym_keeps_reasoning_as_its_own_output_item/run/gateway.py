"""gateway.py: the team's gateway in front of the model server (one URL for every tool). Splits reasoning like vLLM's parser."""
import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
# The deployment behind this gateway runs with a reasoning parser (INFRA-912): the reply's working goes to
# `reasoning_content`, only the conclusion (after the last blank line) stays in `content`, as vLLM returns them.


def completion(handler, body):
    status, data = handler._upstream(body)
    if status != 200:
        return status, data
    reply = json.loads(data)
    for choice in reply.get("choices", []):
        message = choice.get("message") or {}
        content = message.get("content")
        if isinstance(content, str) and "\n\n" in content:
            reasoning, _, conclusion = content.rpartition("\n\n")
            message["reasoning_content"], message["content"] = reasoning, conclusion
    return status, json.dumps(reply).encode()



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
