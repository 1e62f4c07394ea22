"""Step 2: the stage asked for the model at one address, and the run's own model server said it listens at another.

The server's ready line (`SIMULATED_POLICY_READY <url>`, vLLM's `Starting vLLM API server on <url>`) names where it
listens; a stage that found nothing at its `--model-url` was given another address. Which side is wrong follows
from how the two differ: a URL without a port goes to 80 (or 443), the client's mistake (config); a server bound
to one loopback address is not reached on another (its `--host`); a port that differs is a URL taken from another
server's run (a stale ready file, yesterday's script); the right address with a 404 is a wrong path in the URL (a
`/v1` doubled or left out). A URL with no `http://` at all is refused by the client before anything is dialled.

A host name a container's `--add-host NAME:ADDRESS` (a CI template's) maps to an address where the loopback-bound
server does not listen is the container's network set-up (infra), not the server's `--host`.

A model URL given by host name that this node resolves (a static /etc/hosts entry, `getent hosts` in the log) to
another address than the server started for the run listens on, at the same port: the requests reached whatever
listens there (an old node still serving last month's model), and nothing fails.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from gym_pipeline.core.manifest import MANIFEST_FILE
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding, affected, keys_of, model_url_of, plural, unique
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.rules.checkpoint_choice import started_model_servers
from gym_pipeline.diagnose.rules.routing import URL_WITHOUT_SCHEME, groups_routed
from gym_pipeline.diagnose.user_scripts import SERVER_IN_BACKGROUND, UserFile, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, INFRA, MODEL_SERVING

_SERVER_SAYS = ("SIMULATED_POLICY_READY", "Starting vLLM API server")
_ANY_ADDRESS = {"0.0.0.0", "::", ""}  # a server bound to these listens on every address of the machine
_LOOPBACK_NAMES = {"localhost": "127.0.0.1"}  # ::1 is not: a server bound to it refuses 127.0.0.1
_DEFAULT_PORTS = {"http": 80, "https": 443}
_NO_CONNECTION = {"ClientConnectorError", "ClientOSError"}  # aiohttp's errors of a connection never made
_EXPLAINED = frozenset({"model_endpoint_down", "gym_request_retry"})


# an IPv6 address printed without its brackets (`http://::1:8000/v1`): the last colon starts the port
_BARE_IPV6 = re.compile(r"^(?P<scheme>https?)://(?P<host>[0-9A-Fa-f]*:[0-9A-Fa-f:]*):(?P<port>\d+)(?P<path>/\S*)?$")


def _address(url: str) -> tuple[str, int, bool] | None:
    """(host, port, port given) of a URL; None when it does not parse."""
    if bare := _BARE_IPV6.match(url):
        return _LOOPBACK_NAMES.get(bare["host"], bare["host"]), int(bare["port"]), True
    try:
        parts = urlsplit(url if "://" in url else f"http://{url}")
        port = parts.port
    except ValueError:
        return None
    host = parts.hostname or ""
    return _LOOPBACK_NAMES.get(host, host), port or _DEFAULT_PORTS.get(parts.scheme, 80), port is not None


def _reaches(asked: tuple[str, int, bool], served: tuple[str, int, bool]) -> bool:
    return asked[1] == served[1] and (served[0] in _ANY_ADDRESS or asked[0] == served[0])


def rule_endpoint_not_where_server_listens(ev: Evidence) -> list[Finding]:
    # our stages' "did not answer", and Gym's model proxy failing to connect to the URL it was given
    attempts = ev.hits("model_endpoint_down") + [h for h in ev.hits("gym_request_retry")
                                                  if h.groups.get("error") in _NO_CONNECTION] + _gym_still_waiting(ev)
    down = [(hit, address) for hit in attempts
            if (url := hit.group("url", "url2", "url3")) and (address := _address(url))]
    ready = [(hit, address) for hit in ev.hits("model_url")
             if any(says in hit.text for says in _SERVER_SAYS) and (address := _address(hit.groups["url"]))]
    if not down or not ready:
        return []
    hit, asked = down[0]
    if reached := next((r for r in ready if _reaches(asked, r[1])), None):
        # the address was right: the path, or the server gone from there (unless another server printed another
        # address: then the URL may be an ended server's, read from a stale file), or still loading
        only_server = all(_reaches(asked, address) for _, address in ready)
        if only_server:
            return _wrong_path(hit, reached[0]) or _server_gone(ev, hit, reached[0])
        return _wrong_path(hit, reached[0]) or _stale_ready_file(ev, hit, reached[0], ready[-1][0])
    server_hit, served = ready[-1]
    tried = hit.group("url", "url2", "url3").removesuffix("/models").removesuffix("/chat/completions")
    listening = server_hit.groups["url"]
    evidence = unique([hit.evidence(), server_hit.evidence()])
    if "[request_retry" in hit.text:  # Gym's model proxy dials the URL `gym env start` was given
        use = f"start Gym's servers again with the address the server prints, `gym env start ... --model-url {listening}`"
        again = "then run the evaluation again"
    else:
        use = f"give the stage the address the server prints, `--model-url {listening}` (or the sweep's model server)"
        again = "then rerun the stage (`gym-pipeline collect ... --resume`)"
    if not asked[2]:
        return [Finding(
            category=CONFIG,
            title=f"The model URL {tried} has no port, and the model server listens on port {served[1]}",
            evidence=evidence,
            cause=f"The run asked {tried}: without a port the request goes to port {asked[1]}, where nothing "
                  f"serves the model; the run's model server says it listens at {listening}. The port was left "
                  "out of the URL (a pasted address, a variable that was empty).",
            fix=f"Put the port in the URL: {use}; {again}.",
            explains=_EXPLAINED,
        )]
    if asked[1] == served[1] and (mapped := _mapped_by_add_host(ev, asked[0])) is not None:
        file, number, line, address = mapped
        return [Finding(
            category=INFRA,
            title=f"{file}:{number} maps {asked[0]} to {address} in the container (`--add-host`), and the model server "
                  f"listens only on {served[0]}",
            evidence=[*evidence, EvidenceLine(file=file, line=number, text=line)],
            cause=f"The container's `--add-host {asked[0]}:{address}` (a template's mapping, written for a node where "
                  f"the server listens on every address) sends every request for {tried} to {address}, while the run's "
                  f"model server is bound to {served[0]} ({listening}): nothing listens at {address} on that port, and "
                  "every request was refused although the server was up.",
            fix=f"In {file} (line {number}), map {asked[0]} to where the server listens (`--add-host "
                f"{asked[0]}:{served[0]}` with `--network host`), or drop `--add-host {asked[0]}:{address}` and "
                f"{use}; {again}.",
            explains=_EXPLAINED,
        )]
    if asked[1] == served[1]:
        return [Finding(
            category=MODEL_SERVING,
            title=f"The model server listens only on {served[0]}, and the run asked {asked[0]}",
            evidence=evidence,
            cause=f"The model server was started bound to {served[0]} ({listening}), so it answers only there: "
                  f"a request to {tried} on the same port finds nothing listening (connection refused). The "
                  "server's `--host` is the odd one out.",
            fix=f"Start the model server with `--host 127.0.0.1` (or `--host 0.0.0.0` for every address), or "
                f"{use}; {again}.",
            explains=_EXPLAINED,
        )]
    forward = next((h for h in ev.hits("port_forward") if h.group("local", "local2") == str(asked[1])
                    and h.group("remote", "remote2") == str(served[1])), None)
    if forward is not None:
        return [Finding(
            category=INFRA,
            title=f"The port forward from {asked[1]} to the model server's port {served[1]} stopped forwarding",
            evidence=unique([hit.evidence(), forward.evidence(), server_hit.evidence()]),
            cause=f"The run reaches the model through a forward ({forward.file}: `{forward.text.strip()}`): port "
                  f"{asked[1]} carries its requests to the server at {listening}. Requests to {tried} were refused "
                  "while the server itself has no error: the forward (an `ssh -L` tunnel, a port forwarder) went "
                  "away under the run (its terminal closed, the ssh connection dropped, a timeout).",
            fix=f"Keep the forward alive for the whole run (start it under tmux or nohup; for ssh, `-o "
                "ServerAliveInterval=30` or autossh), or let the run call the server directly where it can "
                f"(`--model-url {listening}`); check `curl -s http://127.0.0.1:{asked[1]}/v1/models` through it, then "
                f"{again.removeprefix('then ')} (the forward's log: {forward.file}).",
            explains=_EXPLAINED,
        )]
    published = _published_port(ev, asked[1], served[1])
    if published is not None and served[0] in ("127.0.0.1", "localhost"):
        file, number, line, option = published
        return [Finding(
            category=MODEL_SERVING,
            title=f"The model server listens on its container's own loopback ({listening}): the port "
                  f"{file.name}:{number} publishes, {asked[1]}, reaches nothing",
            evidence=[*evidence, EvidenceLine(file=file.name, line=number, text=line)],
            cause=f"{file.name}:{number} publishes the container's port {served[1]} on port {asked[1]} (`{option}`), and "
                  f"the server inside listens on 127.0.0.1: a container's loopback is its own, and Docker forwards "
                  f"the published port to the container's network address, where nothing listens, so every request "
                  f"to {tried} is refused or reset.",
            fix=f"Start the server inside the container listening on every address, `--host 0.0.0.0` (vLLM's and "
                f"`serve-policy`'s option), keeping `{option}` as it is (on an engine without a bridge network, `dockerd "
                f"--bridge=none`, where `docker network ls` lists no bridge, `-p` publishes nothing at all: run the "
                f"container with `--network host` and the server on port {asked[1]}); check with `curl -s http://127.0.0.1:{asked[1]}/v1/models`, {again.removeprefix('then ')}.",
            explains=_EXPLAINED,
        )]
    stripped = _characters_stripped_from_the_url(ev, asked[1], served[1])
    if stripped is not None:
        file, number, line, chars = stripped
        listed = ", ".join(repr(char) for char in sorted(set(chars)))
        call, removed = f'.rstrip("{chars}")', f'url.removesuffix("{chars}")'
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} strips the characters of `{chars}` from the URL's end, not the suffix: port "
                  f"{served[1]} became {asked[1]}",
            evidence=[*evidence, EvidenceLine(file=file.name, line=number, text=line)],
            cause=f"`{call}` removes every trailing character that is one of {listed}, as many as there are, not the "
                  f"text `{chars}`: with the path gone it went on into the port's digits, so the run asked {tried} "
                  f"while the server listens at {listening}.",
            fix=f"In {file.name}:{number} (`{line}`), remove the suffix, not characters: `{removed}` (Python 3.9+) "
                f"instead of `{call}`; {again}.",
            explains=_EXPLAINED,
        )]
    inherited = _port_from_the_environment(ev)
    if inherited is not None:
        file, number, line, name = inherited
        return [Finding(
            category=MODEL_SERVING,
            title=f"The run asked for the model on port {asked[1]}, and the model server listens on port {served[1]}: "
                  f"{file.name}:{number} takes its port from ${name} when the environment sets it",
            evidence=[*evidence, EvidenceLine(file=file.name, line=number, text=line)],
            cause=f"{file.name}:{number} (`{line}`) keeps a ${name} the shell already has, and a generic name like "
                  f"{name} is often exported by something else (a login profile, a notebook or web server's "
                  f"settings): the server came up at {listening}, not on the port the run was given ({tried}), "
                  "where nothing listens.",
            fix=f"In {file.name}, give the server's port a name of its own and do not inherit it (`{name}="
                f"<the run's port>` instead of `{line}`, or read a dedicated MODEL_PORT), or {use}; check with `env "
                f"| grep ^{name}=` where the server starts; {again}.",
            explains=_EXPLAINED,
        )]
    return [Finding(
        category=MODEL_SERVING,
        title=f"The run asked for the model on port {asked[1]}, and the model server listens on port {served[1]}",
        evidence=evidence,
        cause=f"The run's model server says it listens at {listening}, and the run was given {tried}: an "
              "address of another server (one that has ended, a URL file or script from an earlier run), where "
              "nothing serves the model now.",
        fix=f"Take the URL from the running server's ready line: {use}; {again}.",
        explains=_EXPLAINED,
    )]


_PUBLISHED = re.compile(r"(?:\s-p|--publish)[ =](?:[\d.]+:)?(?P<node>\d+):(?P<container>\d+)\b")


def _published_port(ev: Evidence, node: int | None, container: int | None) -> tuple[UserFile, int, str, str] | None:
    """(file, line, text, the option) of the `docker run -p <node>:<container>` of the user's scripts that publishes
    the container's port `container` on the node's port `node`."""
    for file, number, line, match in lines_matching(ev.user_files, _PUBLISHED):
        if (int(match["node"]), int(match["container"])) == (node, container):
            return file, number, line.strip(), match.group(0).strip()
    return None


_PORT_OF_A_SERVER = re.compile(r"\bserve\S*\b[^\n#]*\s--port[= ]\"?\$\{?(?P<name>[A-Za-z_]\w*)")


def _port_from_the_environment(ev: Evidence) -> tuple[UserFile, int, str, str] | None:
    """(file, line, text, variable) of the assignment `PORT=${PORT:-...}` of the variable a script's server command
    takes its `--port` from: it keeps whatever the environment already holds."""
    for _, _, _, match in lines_matching(ev.user_files, _PORT_OF_A_SERVER):
        name = match["name"]
        kept = re.compile(rf"^\s*(?:export\s+)?{name}=\"?\$\{{{name}:?-")
        found = next(lines_matching(ev.user_files, kept), None)
        if found is not None:
            return found[0], found[1], found[2].strip(), name
    return None


def _gym_still_waiting(ev: Evidence) -> list[LogHit]:
    """`gym env start` waiting for a model endpoint that refused its probe, in a log that never says it answered."""
    answered = {hit.file for hit in ev.hits("gym_model_answering")}
    return [hit for hit in ev.hits("gym_model_wait") if hit.file not in answered]


_NOT_FOUND = re.compile(r"answered HTTP 404")
# Gym waits only for an endpoint whose probe was refused
_REFUSED = re.compile(r"Connect call failed|Connection refused|ConnectionRefused|model endpoint\(s\) to answer", re.I)
_DIALLED = re.compile(r"Connect call failed \('([^']+)'")  # the address a refused connection was made to


def _server_gone(ev: Evidence, hit: LogHit, server_hit: LogHit) -> list[Finding]:
    """The stage dialled the address the server printed when ready, and nothing listened there any more: the
    server had stopped (what stopped it is in its log's last lines when it said; often it did not)."""
    if not _REFUSED.search(hit.text):
        return []
    dialled = set(_DIALLED.findall(hit.text))
    if dialled and urlsplit(server_hit.groups["url"] or "").hostname not in (*dialled, None):
        return []  # the name was resolved to other addresses only: not where the server listens (another reading's)
    said = next((h.text for h in reversed(ev.hits("model_server_stopped"))
                 if h.file == server_hit.file and h.line > server_hit.line), None)
    listening = server_hit.groups["url"]
    if (trap := _exit_trap_of_the_starting_script(ev)) is not None:
        return [_stopped_by_exit_trap(hit, server_hit, said, trap)]
    return [Finding(
        category=MODEL_SERVING,
        title=f"The model server was ready at {listening}, and had stopped when the stage called it",
        evidence=unique([hit.evidence(), server_hit.evidence()]),
        cause=f"The run's model server printed that it listens at {listening}, and the stage's connection to that "
              "very address was refused: nothing listened there any more. The server had ended after getting ready"
              + (f" (its log: `{said.strip()}`)" if said else ", without a word in its log (killed, or stopped "
                 "with the shell or job that started it)")
              + ". A server started in the background ends with what started it: a script's cleanup "
              "(`trap 'kill $(jobs -p)' EXIT`), a closed terminal, the end of a Slurm job step.",
        fix="Keep the model server running for the whole collection: start it on its own (`nohup ... &`, tmux, its "
            "own job, or the sweep's model server), not in a script whose `trap ... EXIT` or end stops it; check "
            f"that it answers (`curl -s {listening}/models`) before the stage starts; then rerun the stage "
            "(`gym-pipeline collect ... --resume`).",
        explains=_EXPLAINED,
    )]


# a script's EXIT trap that kills processes (`trap 'kill 0' EXIT`, `trap 'kill $(jobs -p)' EXIT`)
_KILLING_EXIT_TRAP = re.compile(r"^\s*trap\s+(?P<q>[\"'])(?P<body>[^\"']*\bkill\b[^\"']*)(?P=q)\s+(?:[\w ]*\b)?EXIT\b")


def _exit_trap_of_the_starting_script(ev: Evidence) -> tuple[UserFile, int, str] | None:
    """(script, line, trap) of a script that starts the model server in the background and kills on its EXIT."""
    for file in ev.user_files:
        lines = file.text.splitlines()
        if not any(SERVER_IN_BACKGROUND.search(line) for line in lines):
            continue
        trap = next(((n, line.strip()) for n, line in enumerate(lines, 1) if _KILLING_EXIT_TRAP.match(line)), None)
        if trap is not None:
            return file, *trap
    return None


def _stopped_by_exit_trap(hit: LogHit, server_hit: LogHit, said: str | None,
                          trap: tuple[UserFile, int, str]) -> Finding:
    file, number, line = trap
    listening = server_hit.groups["url"]
    command = line.split("#", 1)[0].strip()
    return Finding(
        category=MODEL_SERVING,
        title=f"{file.name}:{number} `{command}` stops the model server it started when {file.name} ends: it was "
              f"ready at {listening} and gone when the run called it",
        evidence=unique([EvidenceLine(file=file.name, line=number, text=line), server_hit.evidence(),
                         hit.evidence()]),
        cause=f"{file.name} starts the model server in the background and returns, and its `{command}` runs on "
              "every exit, the normal end too: the kill reaches the server (a child of the script, in its process "
              "group for `kill 0`), so it stopped right after getting ready"
              + (f" (its log: `{said.strip()}`)" if said else "")
              + f", and every call to {listening} afterwards was refused.",
        fix=f"In {file.name}, drop `{command}` (it belongs to a script that waits for its children, not one that "
            "leaves a server running), or start the server so that it outlives the script: `nohup ... &` with "
            "`setsid`, tmux, or its own job; check that it still answers after the script ends (`curl -s "
            f"{listening}/models`), then start the servers and run the evaluation again.",
        explains=_EXPLAINED,
    )


_READY_FILE = re.compile(r"--ready-file[= ][\"']?(?P<file>[^\s\"';]+)")


def _stale_ready_file(ev: Evidence, hit: LogHit, ended: LogHit, latest: LogHit) -> list[Finding]:
    """The stage dialled an earlier server's address, read from the ready file that server left (a server killed with
    `kill -9` never removes it): the script's wait for the file ended at once, before this run's server wrote its own."""
    if not _REFUSED.search(hit.text) or latest.groups["url"] == ended.groups["url"]:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _READY_FILE):
        name = match["file"]
        removed = re.compile(rf"^\s*rm\b[^#\n]*{re.escape(Path(name).name)}\b")
        if any(removed.search(other) for other in file.text.splitlines()):
            continue
        tried = hit.group("url", "url2", "url3").removesuffix("/models")
        return [Finding(
            category=MODEL_SERVING,
            title=f"The run took the model URL {tried} from {name}, left by an earlier server; this run's server "
                  f"listens at {latest.groups['url']}",
            evidence=unique([hit.evidence(), ended.evidence(), latest.evidence(),
                             EvidenceLine(file=file.name, line=number, text=line.strip())]),
            cause=f"{file.name}:{number} starts the server with `{match.group(0)}` and waits for that file, but the "
                  f"file was already there: an earlier server (killed, so it never removed it) had written "
                  f"{ended.groups['url']} into it. The wait ended at once, the stage was given that ended server's "
                  f"address and every connection was refused, while this run's server came up at "
                  f"{latest.groups['url']} a moment later.",
            fix=f"In {file.name}, remove the stale ready file before starting the server (`rm -f {name}` on the line "
                f"before it), so the wait on `{match.group(0)}` ends only when this server writes its own address; "
                "stop the server with SIGTERM where it can (a `kill -9` leaves the file behind); then collect again.",
            explains=_EXPLAINED,
        )]
    return []


def _wrong_path(hit: LogHit, server_hit: LogHit) -> list[Finding]:
    """Our stage found the server's address but not its API: 404 on a path other than the one it serves."""
    tried = (hit.group("url", "url2", "url3") or "").removesuffix("/models")
    listening = server_hit.groups["url"].rstrip("/")
    if not _NOT_FOUND.search(hit.text) or urlsplit(tried).path.rstrip("/") == urlsplit(listening).path:
        return []
    return [Finding(
        category=CONFIG,
        title=f"The model URL {tried} has the wrong path: the model server serves {listening}",
        evidence=unique([hit.evidence(), server_hit.evidence()]),
        cause=f"The stage reached the model server's address, and the server answered 404 there: it serves its API "
              f"under `{urlsplit(listening).path or '/'}` ({listening}), and the stage was given "
              f"`{urlsplit(tried).path or '/'}` (a `/v1` doubled or left out, a full endpoint path where the base URL "
              "belongs).",
        fix=f"Give the stage the base URL the server prints, `--model-url {listening}` (a script that appends `/v1` "
            "must start from the URL without it); then rerun the stage (`gym-pipeline collect ... --resume`).",
        explains=_EXPLAINED,
    )]


_API_PATHS = re.compile(r"/(?:chat/completions|completions|responses|models)$")


def rule_url_without_scheme(ev: Evidence) -> list[Finding]:
    """Requests refused by the client itself: the URL they were sent to has no `http://` (a base URL pasted from a
    server's `host:port` line, or built as `$HOST:$PORT/v1`)."""
    groups = groups_routed(ev, "url_without_scheme")
    if not groups:
        return []
    match = URL_WITHOUT_SCHEME.search(groups[0].text)
    url = match["url"] or match["url2"] if match else None
    base = _API_PATHS.sub("", url) if url else None
    model_call = bool(url and _API_PATHS.search(url) and not url.endswith("/models"))
    given = f"`{base}`" if base else "a URL without `http://`"
    use = (f"`gym env start ... --model-url http://{base}` (Gym's `policy_base_url`; `--model-url` of our stages)"
           if model_call and base else f"`http://{base}`" if base else "`http://<host>:<port>/v1`")
    return [Finding(
        category=CONFIG,
        failed_keys=keys_of(groups),
        title=f"The {'model ' if model_call else ''}URL {given} has no scheme (http://): "
              f"{plural(sum(g.count for g in groups), 'request')} refused before being sent",
        evidence=[g.first for g in groups[:2]],
        cause=f"The {'agent called the model at' if model_call else 'request went to'} {url or 'a URL'}: with no "
              "`http://` or `https://` the HTTP client refuses the URL before dialling anything, so no server was "
              "reached and nothing was scored. The base URL was given as `host:port/...` (pasted from a server's "
              f"'listening on' line, or built from `$HOST:$PORT`). Affected: {affected(ev, groups)}.",
        fix=f"Give the URL with its scheme: {use}; then start the servers and run the evaluation again.",
        explains=_EXPLAINED,
    )]


def _resolved(host: str) -> re.Pattern[str]:
    """A lookup's answer for `host` as `getent hosts` (and /etc/hosts) print it: the address, then the names."""
    return re.compile(rf"(?P<address>\b\d{{1,3}}(?:\.\d{{1,3}}){{3}}|[0-9a-f]*:[0-9a-f:]+)\s+(?:\S+\s+)*?{re.escape(host)}\b",
                      re.I)


def rule_host_name_resolves_elsewhere(ev: Evidence) -> list[Finding]:
    url = urlsplit(model_url_of(ev))
    host, port = url.hostname, url.port
    if not host or port is None or re.fullmatch(r"[\d.]+|[0-9a-f:]+", host, re.I) or host in _LOOPBACK_NAMES:
        return []
    servers = [(urlsplit(address), step, line) for address, step, line in started_model_servers(ev)]
    ours = next(((parts, step, line) for parts, step, line in servers if parts.port == port), None)
    if ours is None:
        return []
    for log, head in ev.log_heads:
        for match in _resolved(host).finditer(head):
            if match["address"] == ours[0].hostname:
                continue
            number = head.count("\n", 0, match.start()) + 1
            return [Finding(
                category=INFRA,
                title=f"{host} resolves to {match['address']} on this node, not to the model server started for the "
                      f"run ({ours[0].hostname}:{port}): the requests went to whatever listens there",
                evidence=[EvidenceLine(file=ev.rel(log), line=number, text=head.splitlines()[number - 1].strip()),
                          ours[2], *(EvidenceLine(file=MANIFEST_FILE, line=line, text=f"rollouts.model_url: {recorded}")
                                     for recorded, line in ev.manifest.model_urls[:1])],
                cause=f"The run's model URL names the host {host}, and this node resolves it to {match['address']} "
                      f"(its log shows the lookup), while the server started for this run (step {ours[1]}) listens on "
                      f"{ours[0].hostname}:{port}. Something else answered at {match['address']}:{port}, most often "
                      "an old server left running where a stale static entry points. Nothing fails; the rollouts are "
                      "that server's.",
                fix=f"Check how the node resolves {host} (`getent hosts {host}`): a static entry in /etc/hosts "
                    f"(`grep {host} /etc/hosts`) overrides DNS; remove or update it, or give the run the server's "
                    f"address ({ours[0].hostname}:{port}); then collect again on a clean output path and profile.",
            )]
    return []


# a refused connection to a host name, with the address it was resolved to (aiohttp's words)
_REFUSED_AT = re.compile(r"Cannot connect to host (?P<host>[A-Za-z][\w.-]*):(?P<port>\d+)\b[^\n]*?Connect call failed "
                         r"\('(?P<address>[\d.]+|[0-9a-fA-F:]+)', (?P=port)")


def rule_host_name_resolves_where_nothing_listens(ev: Evidence) -> list[Finding]:
    servers = [(urlsplit(address), step, line) for address, step, line in started_model_servers(ev)]
    for log, head in ev.log_heads:
        for refused in _REFUSED_AT.finditer(head):
            host, port = refused["host"], int(refused["port"])
            said = line_of_match(ev.rel(log), head, refused)
            dialled = set(_DIALLED.findall(said.text))
            address = " and ".join(sorted(dialled))  # IPv4 first
            ipv4 = next((a for a in sorted(dialled) if "." in a), address)
            ours = next(((parts, line) for parts, _, line in servers
                         if parts.port == port and parts.hostname not in (*dialled, host)), None)
            if ours is None:
                continue
            return [Finding(
                category=INFRA,
                title=f"{host} resolves to {address} on this node, where nothing listens: the model server listens on "
                      f"{ours[0].hostname}:{port}, and every connection was refused",
                evidence=[said, ours[1]],
                cause=f"The run's model URL names {host}; the node's name service (/etc/hosts first) gives "
                      f"{address} for it, not {ours[0].hostname}, where the server started for the run listens. The "
                      "server is up and fine; the name points elsewhere (an /etc/hosts entry rewritten by an image "
                      "build or a provisioning script: `127.0.1.1 localhost`, a loopback address nothing listens on).",
                fix=f"Check the name: `getent hosts {host}` and `grep -n {host} /etc/hosts`; restore `127.0.0.1 "
                    f"{host}` in /etc/hosts (and fix what rewrote it: a `sed` on its lines whose pattern also matched "
                    f"this one, as `127\\.0\\.[01]\\.1` does for {ipv4}), or give the run the server's address "
                    f"(`--model-url http://{ours[0].hostname}:{port}/v1`); then collect again.",
                explains=frozenset({"model_endpoint_down"}),
            )]
    return []


_ADD_HOST = re.compile(r"--add-host[= ](?P<name>[\w.-]+)[:=](?P<address>[\d.]+|\[?[0-9a-fA-F:]+\]?)")


def _mapped_by_add_host(ev: Evidence, host: str) -> tuple[str, int, str, str] | None:
    """(script, line, text, address) of a `docker run --add-host HOST:ADDRESS` in the run's scripts."""
    return next(((file.name, number, line.strip(), match["address"])
                 for file, number, line, match in lines_matching(ev.user_files, _ADD_HOST)
                 if match["name"] == host), None)


# `url.rstrip("/v1")`: characters stripped from a URL's end, as if they were a suffix
_STRIPPED_SUFFIX = re.compile(r"\.rstrip\(\s*[\"'](?P<chars>[^\"']{2,})[\"']\s*\)")


def _characters_stripped_from_the_url(ev: Evidence, asked: int | None, served: int | None
                                      ) -> tuple[UserFile, int, str, str] | None:
    """(file, line, text, the characters) of a `.rstrip("/v1")` that took the served port's last digits: the asked
    port is the served one with trailing characters of the stripped set removed."""
    if asked is None or served is None or not str(served).startswith(str(asked)) or asked == served:
        return None
    lost = str(served)[len(str(asked)):]
    return next(((file, number, line.strip(), match["chars"]) for file, number, line, match in
                 lines_matching(ev.user_files, _STRIPPED_SUFFIX) if set(lost) <= set(match["chars"])), None)
