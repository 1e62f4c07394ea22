"""Step 2: the model server this run started could not bind its port, and the run talked to that port anyway.

A server left running from an earlier run (another checkpoint's) holds the port; the new one fails with
`address already in use`, and a collection pointed at the port gets its answers from the old one. The outputs
look complete and healthy: they measure the wrong model.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, unique
from gym_pipeline.diagnose.origin import address_of
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

# `bind on address ('127.0.0.1', 8230)` (asyncio), `bind() to 0.0.0.0:8000` (nginx-like), `port 8000 is in use`
_BOUND_PORT = re.compile(r"address \('[^']*', (?P<port>\d+)\)|:(?P<port2>\d+)\b|port (?P<port3>\d+)")


def rule_model_port_held_by_another_server(ev: Evidence) -> list[Finding]:
    if not ev.artifacts.rollouts.valid_rows:
        return []
    used = {address[1]: (url, line) for url, line in ev.manifest.model_urls if (address := address_of(url))}
    for hit in ev.hits("address_in_use"):
        match = _BOUND_PORT.search(hit.text)
        port = int(match.group("port") or match.group("port2") or match.group("port3")) if match else None
        if port not in used:
            continue
        url, line = used[port]
        others = [h.evidence() for h in ev.hits("model_url")
                  if h.file != hit.file and (address := address_of(h.groups.get("url") or "")) and address[1] == port]
        return [Finding(
            category=MODEL_SERVING,
            title=f"The model server this run started could not bind port {port}, and the collection still got "
                  f"answers there: another server answered",
            evidence=unique([hit.evidence(), EvidenceLine(file="manifest.json", line=line, text=f"model_url: {url}"),
                             *others]),
            cause=f"{hit.file} shows the server failing to bind port {port} (address already in use), and the "
                  f"rollouts were collected from {url}: whatever held the port (a server of an earlier run, "
                  "another checkpoint) answered every request, so the outputs look complete and measure another "
                  "model than the one this run meant to serve.",
            fix=f"Stop the process holding the port (`ss -ltnp 'sport = :{port}'` names its pid; `kill <pid>`), start "
                "this checkpoint's server, and collect again on a clean output path (or start the server on a free "
                "port, `--port 0`, and point `--model-url` at it).",
            explains=frozenset({"address_in_use"}),
        )]
    return []
