"""gateway.py: the team's gateway in front of the model server. It always streams the answer back (server-sent
events), so the latency dashboard can measure the time to the first token."""
import json
import sys
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

UPSTREAM = sys.argv[2]
ALWAYS_STREAM = True


class Gateway(BaseHTTPRequestHandler):
    def _upstream(self, body=None):
        request = urllib.request.Request(UPSTREAM + self.path, data=body, method=self.command,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def _send(self, status, data, kind="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._send(*self._upstream())

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        status, data = self._upstream(body)
        if status != 200 or not ALWAYS_STREAM or not self.path.endswith("/chat/completions"):
            return self._send(status, data)
        answer = json.loads(data)
        events = []
        for choice in answer["choices"]:
            chunk = {"id": answer["id"], "object": "chat.completion.chunk", "created": answer.get("created", 0),
                     "model": answer["model"], "choices": [{"index": choice["index"], "delta": choice["message"],
                                                           "finish_reason": choice.get("finish_reason")}]}
            events.append("data: " + json.dumps(chunk) + "\n\n")
        events.append("data: [DONE]\n\n")
        self._send(200, "".join(events).encode(), "text/event-stream")


if __name__ == "__main__":
    print(f"gateway.py on 127.0.0.1:{sys.argv[1]} -> {UPSTREAM} (always streaming: {ALWAYS_STREAM})", flush=True)
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Gateway).serve_forever()
