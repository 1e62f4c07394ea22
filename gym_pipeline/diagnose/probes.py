"""Live probes, only when asked for (`--probe`): does what the run needs answer right now?

- the model's `/v1/models`, at the URL the run's own files name (its logs or manifest) or the
  caller gives;
- the head server's `/server_instances` (Gym's default 127.0.0.1:11000, or where its log says it
  listened);
- the ports the run's servers listened on: is something holding them now?

Only loopback addresses and URLs found in the run's own files (or given by the caller) are
contacted, each with a short timeout and never with credentials. A port is tested by trying to
bind it on loopback, which sends nothing anywhere.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import orjson

from gym_pipeline.diagnose.evidence_line import EvidenceLine

PROBE_TIMEOUT_S = 2.0
DEFAULT_HEAD_URL = "http://127.0.0.1:11000"
MODEL, HEAD_SERVER, PORT = "model", "head_server", "port"
PORT_IN_USE = "in use: a process is listening on it"


@dataclass(frozen=True)
class ProbeTarget:
    kind: str  # MODEL, HEAD_SERVER or PORT
    address: str  # a URL, or host:port for PORT
    source: str  # where the run names it: "logs/model_server.log:1", "given", "Gym's default"
    server: str | None = None  # the Gym server a port belongs to


@dataclass(frozen=True)
class ProbeResult:
    target: ProbeTarget
    ok: bool  # the model or head server answered; the port is free
    detail: str

    def evidence(self) -> EvidenceLine:
        t = self.target
        what = {MODEL: f"GET {models_url(t.address)}", HEAD_SERVER: f"GET {t.address}/server_instances",
                PORT: f"port {t.address}" + (f" ({t.server})" if t.server else "")}[t.kind]
        return EvidenceLine(file=f"probe: {what}", text=f"{self.detail} (address from {t.source})")


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def local_url(url: str) -> str:
    """A server listening on every interface (0.0.0.0, ::) is reached on loopback."""
    parts = urlsplit(url)
    if parts.hostname in ("0.0.0.0", "::"):
        port = f":{parts.port}" if parts.port else ""
        parts = parts._replace(netloc=f"127.0.0.1{port}")
    return urlunsplit(parts)


def models_url(base_url: str) -> str:
    """`<base>/models` for an OpenAI base URL (`.../v1`), `<server>/v1/models` for a bare server URL."""
    base = local_url(base_url).rstrip("/")
    return f"{base}/models" if base.endswith("/v1") else f"{base}/v1/models"


def _get_json(url: str) -> tuple[int, object]:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT_S) as answer:  # noqa: S310 (vetted by probe())
        return answer.status, orjson.loads(answer.read(1 << 20))


def _why_not(error: BaseException) -> str:
    if isinstance(error, urllib.error.HTTPError):
        return f"HTTP {error.code} {error.reason}"
    reason = getattr(error, "reason", error)
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused: nothing listens there"
    if isinstance(reason, (TimeoutError, socket.timeout)):
        return f"no answer within {PROBE_TIMEOUT_S:g} s"
    return f"{type(reason).__name__}: {reason}"


def _probe_model(target: ProbeTarget) -> ProbeResult:
    try:
        status, body = _get_json(models_url(target.address))
    except urllib.error.HTTPError as error:
        # 401/403: something serves there and wants a key; the probe never sends one
        return ProbeResult(target, error.code in (401, 403), _why_not(error))
    except (OSError, ValueError) as error:
        return ProbeResult(target, False, _why_not(error))
    models = [m.get("id") for m in body.get("data", []) if isinstance(m, dict)] if isinstance(body, dict) else []
    if not models:
        return ProbeResult(target, False, f"HTTP {status} but it lists no model")
    return ProbeResult(target, True, f"HTTP {status}, serves {', '.join(map(str, models[:5]))}")


def _probe_head(target: ProbeTarget) -> ProbeResult:
    try:
        status, body = _get_json(f"{local_url(target.address).rstrip('/')}/server_instances")
    except (OSError, ValueError) as error:
        return ProbeResult(target, False, _why_not(error))
    count = len(body) if isinstance(body, (list, dict)) else 0
    return ProbeResult(target, True, f"HTTP {status}, {count} server instance(s) registered")


def _probe_port(target: ProbeTarget) -> ProbeResult:
    host, _, port = target.address.rpartition(":")
    with socket.socket(socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a TIME_WAIT leftover is not a holder
        try:
            sock.bind((host.strip("[]"), int(port)))
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return ProbeResult(target, False, PORT_IN_USE)
            return ProbeResult(target, False, f"cannot test: {error.strerror}")
    return ProbeResult(target, True, "free")


_PROBES = {MODEL: _probe_model, HEAD_SERVER: _probe_head, PORT: _probe_port}
DEFAULT_SOURCE = "Gym's default"


def allowed(target: ProbeTarget) -> bool:
    """Loopback always; another host only when the run's own files or the caller named it."""
    if target.kind == PORT:
        return is_loopback(target.address.rpartition(":")[0].strip("[]"))  # a bind test is local by nature
    return is_loopback(urlsplit(local_url(target.address)).hostname) or target.source != DEFAULT_SOURCE


def probe(targets: list[ProbeTarget]) -> list[ProbeResult]:
    """Run every allowed probe concurrently, each bounded by PROBE_TIMEOUT_S."""
    targets = [t for t in dict.fromkeys(targets) if allowed(t)]
    if not targets:
        return []
    with ThreadPoolExecutor(max_workers=min(8, len(targets))) as pool:
        return list(pool.map(lambda t: _PROBES[t.kind](t), targets))
