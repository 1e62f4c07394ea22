"""Findings about Gym's nested "inner server" errors: the model's side (step 2) and the verifier's (step 7)."""

from __future__ import annotations

import re

from gym_pipeline.diagnose.artifacts import FailureGroup
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.exception_hints import code_fix_hint
from gym_pipeline.diagnose.findings import (
    Finding,
    affected,
    debug_rerun,
    keys_of,
    plural,
    resume_command,
    status_words,
    unique,
)
from gym_pipeline.diagnose.logs import LogHit
from gym_pipeline.diagnose.nested import unwrap_inner_server_error
from gym_pipeline.diagnose.origin import TRACEBACK_FRAME, missing_module_fix, server_role
from gym_pipeline.diagnose.verifier_source import cached_coroutines, verify_lines
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING, REQUEST_DEBUG_FLAG, VERIFIER_RUNTIME


def nested_finding(ev: Evidence, groups: list[FailureGroup], category: str, who: str, reading: str,
                    fix_next: str) -> Finding:
    lead = groups[0]
    nested = lead.nested
    assert nested is not None
    chain = " -> ".join(f"`{server}`" for server in nested.chain)
    headlines = sorted({g.nested.headline for g in groups if g.nested})
    hidden = all(g.nested.hidden for g in groups if g.nested)
    first = "The real body is hidden: enable" if hidden else "See"
    return Finding(
        category=category,
        failed_keys=keys_of(groups),
        title=f'{who} error hidden behind nested "inner server" 500s: {"; ".join(headlines)} '
        f"({plural(sum(g.count for g in groups), 'failed attempt')})",
        evidence=[g.first for g in groups[:3]],
        cause=(
            f"Each /run failed ({status_words(lead)}) with a body nested {len(nested.chain)} levels deep: {chain}. "
            f"The innermost layer, `{nested.innermost}`, got `{nested.headline}` from the server it called"
            + (f" (HTTP {nested.inner.code})" if nested.inner.code else "")
            + f". {reading} Affected: {affected(ev, groups)}."
        ),
        fix=(f"{hint} " if (hint := code_fix_hint(nested.headline)) else "") + _raising_line(ev, nested.headline)
        + _terminal_opened(ev, nested.headline)
        + _attribute_read_in_the_verifier(ev, nested.headline) + _coroutine_cached_in_the_verifier(ev, nested.headline)
        + (f"1. {module_fix} 2. " if (module_fix := missing_module_fix(nested.headline, f"`{nested.innermost}`"))
           else f"1. {first} the real request and response at every boundary: {debug_rerun(ev, lead)}. 2. ")
        + f"{fix_next} 3. Once fixed, collect the missing rollouts: {resume_command(ev)}.",
        explains=frozenset({"inner_server_error", "run_failed"}),
    )


_EXCEPTION_CLASS = re.compile(r"^\W*(?P<cls>[A-Z]\w*(?:Error|Exception|Operation|Warning)?)\b")


def _raising_line(ev: Evidence, headline: str) -> str:
    """The line of the run's own server code (a verifier kept in the run folder) where the nested error was raised,
    from the first traceback of it in the logs: what to change, by file and line."""
    if ev.run_dir is None or (error := _EXCEPTION_CLASS.search(headline)) is None:
        return ""
    for incident in ev.logs.incidents:
        raised = re.sub(r"^\s*\(\S+\)\s*", "", incident.text)  # without the `(server)` prefix Gym puts on its lines
        # a traceback whose exception line the log reader did not take (`decimal.InvalidOperation: ...` inside an
        # exception group's `|` lines) is still the raise's, told by its frame in the run's own code
        if incident.kind != "traceback" or not (raised.startswith(error["cls"]) or "(no exception line)" in raised):
            continue
        raised = headline if "(no exception line)" in raised else raised
        for frame in reversed(incident.frames):
            if (found := TRACEBACK_FRAME.search(frame)) is None:
                continue
            source = next((path for path in ev.verifier_sources if found["path"].endswith("/" + ev.rel(path))), None)
            if source is None:
                continue
            lines = source.read_text(errors="replace").splitlines()
            number = int(found["line"])
            if not 0 < number <= len(lines):
                continue
            return (f"The run's own code raised it: {ev.rel(source)}:{number} `{lines[number - 1].strip()}` "
                    f"({raised.strip()[:160]}, {incident.file}:{incident.line}); make that line handle the "
                    "values it got (or the rows give it the values it expects), then restart the servers. ")
    return ""


def _coroutine_cached_in_the_verifier(ev: Evidence, headline: str) -> str:
    """The verifier's `async def` under `lru_cache` when a coroutine was awaited twice: the cache keeps the coroutine."""
    if ev.run_dir is None or "cannot reuse already awaited coroutine" not in headline:
        return ""
    cached = cached_coroutines(ev.verifier_sources, ev.run_dir)
    if not cached:
        return ""
    file, number, text, function = cached[0]
    return (f"{file}:{number} `{text}` caches the async `{function}`: lru_cache keeps the coroutine it returns, not "
            "its result, and a coroutine can be awaited once, so every repeat of an answer gets it back spent. Cache "
            f"the result instead (a dict filled after the `await`, or make `{function}` a plain `def` if it awaits "
            "nothing), then restart the servers. ")


_WRONG_TYPE = re.compile(r"'(?P<cls>list|dict|NoneType|int|float|str|tuple|bytes)' object has no attribute "
                         r"'(?P<attribute>\w+)'")


def _attribute_read_in_the_verifier(ev: Evidence, headline: str) -> str:
    """The line of the verifier's `verify` that reads the attribute a value of another type lacks; for a list, the
    message content a Responses request gives as a list of parts."""
    if ev.run_dir is None or (wrong := _WRONG_TYPE.search(headline)) is None:
        return ""
    lines = verify_lines(ev.verifier_sources, ev.run_dir, re.compile(r"\." + wrong["attribute"] + r"\b|\.content\b"))
    read = next(((file, number, text) for file, number, text in lines if f".{wrong['attribute']}" in text), None)
    if read is None:
        return ""
    file, number, text = read
    content = any(".content" in line and line_number <= number for _, line_number, line in lines)
    return (f"{file}:{number} (`{text}`) reads `.{wrong['attribute']}` in the verifier's `verify`, where the value is "
            f"a `{wrong['cls']}`"
            + (": a message's `content` in a Responses request is a list of content parts (`[{\"type\": "
               "\"input_text\", \"text\": ...}]`), not a string; join the parts' `text` first (or accept both "
               "forms)" if content and wrong["cls"] == "list" else "") + ". ")


_NO_DEVICE = re.compile(r"OSError\(6\b|Errno 6\]|No such device or address")
_OPENS_TERMINAL = re.compile(r"[\"']/dev/tty[\"']")


def _terminal_opened(ev: Evidence, headline: str) -> str:
    """ENXIO from a verifier whose code opens /dev/tty: a server started without a terminal has none."""
    if ev.run_dir is None or not _NO_DEVICE.search(headline):
        return ""
    for shown, number, line in ev.verifier_lines:
        if _OPENS_TERMINAL.search(line) and not line.lstrip().startswith("#"):
            return (f"{shown}:{number} opens /dev/tty (`{line.strip()}`): a server started without a terminal (in "
                    "the background, by `gym env start`, in a job) has none, so every call raises ENXIO (errno 6, No "
                    "such device or address). Write debug output to stderr or a logger instead. ")
    return ""


def _log_nesting(hit: LogHit) -> tuple[str, str | None]:
    """(innermost server, what it got) of a nested error in a log line; None when the body is not there."""
    text = hit.text[hit.text.find("Hit an exception"):]
    nested = unwrap_inner_server_error(text)
    if nested is None:
        return hit.groups.get("server") or "unknown", None
    return nested.innermost, None if nested.hidden else nested.headline


def nested_log_findings(ev: Evidence, role: str) -> list[Finding]:
    """Nested "inner server" errors seen only in logs (no failures sidecar says more)."""
    if any(g.nested for g in ev.artifacts.failure_groups):
        return []  # the sidecar's bodies are better evidence, reported above

    def side(hit: LogHit) -> str:
        return "verifier" if server_role(_log_nesting(hit)[0]) == "verifier" else "model"

    hits = [h for h in ev.hits("inner_server_error") if side(h) == role]
    if not hits:
        return []
    innermost, got = _log_nesting(hits[0])
    category, who = (MODEL_SERVING, "model") if role == "model" else (VERIFIER_RUNTIME, "verifier")
    return [Finding(
        category=category,
        title=f'Nested "inner server" errors from the {who} side ({innermost})'
              + (f": {got}" if got else ": the real body is hidden"),
        evidence=unique(h.evidence() for h in hits),
        cause=f"The logs show `Hit an exception in ... calling an inner server` {plural(len(hits), 'time')}; the "
              f"innermost server named is `{innermost}`"
              + (f", which got `{got}`." if got else ", and its own response body is not in the logs, so the real "
                 "provider or verifier error is unknown."),
        fix=f"Enable the existing request-boundary visibility before changing any code: restart with `gym env start ... "
            f"{REQUEST_DEBUG_FLAG}` and re-run one failing row with `gym eval run ... {REQUEST_DEBUG_FLAG}`; read "
            "the `Request info:` / `Response content:` lines of the innermost server (see the guide's "
            "references/request-boundary-visibility.md).",
        explains=frozenset({"inner_server_error"}),
    )]


