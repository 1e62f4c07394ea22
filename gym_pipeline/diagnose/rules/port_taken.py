"""A server that could not bind its port (`address already in use`).

- Step 1: one of Gym's servers whose config pins a `port:` (copied from someone's debugging setup) that another
  process already holds, often the model server on vLLM's 8000. Gym gives every server a free port unless its config
  names one, so the fix is the config's (config): drop the line. `gym env start` shuts every server down when one
  exits, and nothing is evaluated.
- Step 2: the model server this run started could not bind its port, and the run talked to that port anyway. A
  server left running from an earlier run (another checkpoint's) holds the port; the new one fails, and a collection
  pointed at the port gets its answers from the old one. The outputs look complete and healthy: they measure the
  wrong model.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, unique
from gym_pipeline.diagnose.origin import address_of
from gym_pipeline.diagnose.vocabulary import CONFIG, MODEL_SERVING

# `bind on address ('127.0.0.1', 8230)` (asyncio), `bind() to 0.0.0.0:8000` (nginx-like), `port 8000 is in use`
_BOUND_PORT = re.compile(r"address \('[^']*', (?P<port>\d+)\)|:(?P<port2>\d+)\b|port (?P<port3>\d+)")


_SERVER_PREFIX = re.compile(r"^\((?P<server>[\w.-]+)\)")  # how `gym env start` prefixes each server's output
_PORT_SETTING = re.compile(r"^\s*port:\s*(?P<port>\d+)\s*(?:#.*)?$")
_MAX_CONFIGS = 200  # YAML files read under the run folder (a copy of the user's Gym servers is a few)


def rule_gym_server_config_pins_a_taken_port(ev: Evidence) -> list[Finding]:
    for hit in ev.hits("address_in_use"):
        server, match = _SERVER_PREFIX.match(hit.text), _BOUND_PORT.search(hit.text)
        if server is None or match is None:
            continue
        port = int(match.group("port") or match.group("port2") or match.group("port3"))
        pinned = _pinned_port(ev, server["server"], port)
        if pinned is None:
            continue
        name, number, text = pinned
        model = next((url for url, _ in ev.manifest.model_urls if (address := address_of(url)) and address[1] == port),
                     None) or next((h.groups.get("url") for h in ev.hits("model_url")
                                    if (address := address_of(h.groups.get("url") or "")) and address[1] == port), None)
        holder = f"the model server ({model})" if model else "another process"
        return [Finding(
            category=CONFIG,
            title=f"{server['server']} could not bind port {port}: its config ({name}:{number}) pins that port, which "
                  f"{holder} already holds",
            evidence=[hit.evidence(), EvidenceLine(file=name, line=number, text=text)],
            cause=f"Gym starts each server on a free port unless its config names one; {name}:{number} gives "
                  f"{server['server']} `port: {port}`, and {holder} listens there, so it could not start "
                  "(address already in use), and `gym env start` shut the other servers down with it: nothing was "
                  "evaluated.",
            fix=f"Remove `port: {port}` from {name} (line {number}) so Gym picks a free port (a fixed port for a "
                "debugging script belongs in that script's own overrides, on a port nothing else uses); then `gym env "
                "start` again and run the eval.",
            explains=frozenset({"address_in_use"}),
        )]
    return []


def _pinned_port(ev: Evidence, server: str, port: int) -> tuple[str, int, str] | None:
    """(file, line, text) of a `port: <port>` setting in a YAML config under the run folder that defines `server`."""
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return None
    for path in sorted(ev.run_dir.rglob("*.y*ml"))[:_MAX_CONFIGS]:
        try:
            text = path.read_text(errors="replace")
        except OSError:
            continue
        if not re.search(rf"^\s*{re.escape(server)}:\s*$", text, re.M):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if (setting := _PORT_SETTING.match(line)) and int(setting["port"]) == port:
                return ev.rel(path), number, line.strip()
    return None


# (a literal folder: `--checkpoint "$CKPT"` names none)
_SERVED_CHECKPOINT = re.compile(r"\bserve-policy\b[^\n]*--checkpoint[= ]\S*?(?<=[/= ])(?P<name>[\w.-]+)/?(?=\s|$)")


def _checkpoint_served(ev: Evidence) -> str | None:
    """The checkpoint (its folder's name) the run's scripts start the model server on, where one does."""
    for file in ev.user_files:
        if match := _SERVED_CHECKPOINT.search(file.text):
            return match["name"]
    return None


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
            fix=f"Stop the process holding the port, whose bind failed with `address already in use` (`ss -ltnp "
                f"'sport = :{port}'` names its pid; `kill <pid>`), start {_checkpoint_served(ev) or 'this checkpoint'}'s "
                "server, and collect again on a clean output path (or start the server on a free port, `--port 0`, "
                "and point `--model-url` at it).",
            explains=frozenset({"address_in_use"}),
        )]
    return []
