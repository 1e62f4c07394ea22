"""Overload: far more requests in flight than the model server runs, read as throughput, not a model fault.

Rate limits (429) and timeouts from a model server are a serving problem when the server fails, and
a throughput problem (seed 000: "concurrency too high") when the run simply sends more than it
serves. What tells them apart: the server's own load line (vLLM's `Running: R reqs, Waiting: W
reqs`) showing a queue as deep as its batch or deeper, a 429 that says the server is overloaded,
or a concurrency far above what the server was seen running. A rate limit (429) is the server asking
for fewer requests whatever it says, so it reads as throughput too, unless it is a spent quota
(billing, an account matter) or it refused every request of a run that sent one or two at a time: lower
concurrency cannot help, the endpoint (a key's limit, a gateway) refuses whatever the load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from gym_pipeline.core.manifest import MANIFEST_FILE
from gym_pipeline.diagnose.artifacts import FailureGroup
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, affected, keys_of, models_url, plural, resume_command, unique
from gym_pipeline.diagnose.rules.routing import OVERLOADED_REPLY
from gym_pipeline.diagnose.user_scripts import (
    concurrency_source,
    lines_matching,
    request_loops,
    server_capacity_settings,
    unthrottled_arrays,
)
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING, THROUGHPUT_RESOURCES

_TIMEOUT = re.compile(r"timeout|timed out", re.I)
_QUOTA = re.compile(r"insufficient_quota|quota|billing|credit", re.I)
FAR_ABOVE = 4  # concurrency this many times what the server runs at once is overload, whatever else it shows
SERIAL = 2  # at most this many requests at once, a run cannot ask for less: a 429 to every one is the endpoint's


@dataclass(frozen=True)
class Overload:
    concurrency: int | None  # the most requests the run sent at once
    concurrency_line: EvidenceLine | None
    running: int | None  # the most the server ran at once, from its load lines
    waiting: int | None  # the deepest queue its load lines show
    load_line: EvidenceLine | None  # the load line with the deepest queue
    refusals: int  # attempts refused with an "overloaded" reply
    rate_limited: int = 0  # attempts answered 429 (not a spent quota)

    @property
    def seen_overloaded(self) -> bool:
        """The server said or showed it was overloaded (not only a rate limit)."""
        return bool(self.refusals or self.load_line or (self.concurrency and self.running
                                                        and self.concurrency >= FAR_ABOVE * self.running))

    @property
    def evidence(self) -> list[EvidenceLine]:
        return [line for line in (self.load_line, self.concurrency_line) if line is not None]

    def what(self) -> str:
        parts = []
        if self.concurrency:
            parts.append(f"the run sent up to {self.concurrency} requests at once")
        if self.running is not None:
            queue = f" with up to {self.waiting} more waiting in its queue" if self.waiting else ""
            parts.append(f"the model server ran at most {self.running} at a time{queue}")
        if self.refusals:
            parts.append(f"{self.refusals} attempts were refused as overloaded")
        elif self.rate_limited:
            parts.append(f"{self.rate_limited} attempts were rate limited (HTTP 429: the server asks for fewer "
                         "requests)")
        return "; ".join(parts)

    def suggested_concurrency(self) -> int | None:
        return max(self.running, 1) if self.running else (self.concurrency // FAR_ABOVE or 1 if self.concurrency else None)


def read_overload(ev: Evidence, groups: list[FailureGroup]) -> Overload | None:
    """Overload behind these failed model calls (429s and timeouts), or None when nothing shows it."""
    shedding = [g for g in groups if g.http_status == 429 or _TIMEOUT.search(g.text)
                or (g.nested and OVERLOADED_REPLY.search(g.text))]
    if not shedding:
        return None
    # "overloaded" in a 429, or in the model server's refusal nested in Gym's inner-server 500s
    refusals = sum(g.count for g in shedding if (g.http_status == 429 or g.nested) and OVERLOADED_REPLY.search(g.text))
    rate_limited = sum(g.count for g in shedding if g.http_status == 429 and not _QUOTA.search(g.text))
    if rate_limited * 2 < sum(g.count for g in groups):
        rate_limited = 0  # a few 429s among server errors: the server is failing, not just asking for less
    loads = ev.hits("server_load")
    deepest = max(loads, key=lambda h: int(h.groups["waiting"] or 0), default=None)
    running = max((int(h.groups["running"] or 0) for h in loads), default=None)
    waiting = int(deepest.groups["waiting"] or 0) if deepest else None
    concurrency, concurrency_line = _concurrency(ev)
    queued = waiting is not None and running is not None and waiting >= max(running, 1)
    far_above = bool(concurrency and running and concurrency >= FAR_ABOVE * running)
    if not (refusals or queued or far_above or rate_limited):
        return None
    return Overload(concurrency, concurrency_line, running, waiting,
                    deepest.evidence() if deepest and waiting else None, refusals, rate_limited)


def _concurrency(ev: Evidence) -> tuple[int | None, EvidenceLine | None]:
    hits = ev.hits("gym_concurrency")
    if hits:
        top = max(hits, key=lambda h: int(h.groups["concurrency"]))
        return int(top.groups["concurrency"]), top.evidence()
    if ev.manifest.concurrency:
        value, line = max(ev.manifest.concurrency)
        return value, EvidenceLine(file=MANIFEST_FILE, line=line, text=f'"concurrency": {value}')
    return None, None


_KEY_LIMIT = re.compile(r"(?:for|per|of) (?:this|the|your|each)? ?(?:API )?key\b[^\"]{0,80}", re.I)
_KEY_VARIABLE = re.compile(r"--api-key-env[ =](?P<name>\w+)|\b(?P<known>OPENAI_API_KEY|policy_api_key)\b")


def _limit_of_the_key(ev: Evidence, groups: list[FailureGroup]) -> str:
    """A sentence for the fix when the 429s say the limit is the API key's: the variable the run takes its key from
    (never its value)."""
    said = next((match.group(0).strip() for g in groups if g.http_status == 429
                 and (match := _KEY_LIMIT.search(g.text))), None)
    if said is None:
        return ""
    given = next(((file, number, match["name"] or match["known"]) for file, number, _, match in
                  lines_matching(ev.user_files, _KEY_VARIABLE)), None)
    where = f"the key in {given[2]} ({given[0].name}:{given[1]})" if given else "the run's API key"
    return (f"The 429s say the limit is the key's ({said!r}): the run sends {where}, whose limit is below the "
            "concurrency: run with a key meant for batch work, whose limit fits the concurrency. ")


def overload_finding(ev: Evidence, groups: list[FailureGroup], overload: Overload) -> Finding:
    """The finding for failed model calls that overload explains: lower the concurrency, with the numbers."""
    attempts = sum(g.count for g in groups)
    statuses = sorted({f"HTTP {g.http_status}" if g.http_status else "timeouts" for g in groups})
    target = overload.suggested_concurrency()
    current = f"from {overload.concurrency} " if overload.concurrency else ""
    capacity = server_capacity_settings(ev.user_files)
    loops = request_loops(ev.user_files)
    other_load = (f" {', '.join(loops)} {'send' if len(loops) > 1 else 'sends'} requests to a model server from a "
                  "loop: if it ran beside the collection (a load test or warm-up left running), stop it (`pkill -f "
                  f"{loops[0]}`) before collecting." if loops else "")
    arrays = unthrottled_arrays(ev.user_files)
    at_once = "".join(
        f"{Path(file.name).name} runs its job array's {tasks} tasks (`--array={span}`) at once, each sending up to "
        f"{overload.concurrency or 'its concurrency in'} requests to this one server: let fewer run together "
        f"(`#SBATCH --array={span}%1`, or `%2`). " for file, _, span, tasks in arrays[:1])
    source = concurrency_source(ev.user_files)
    chosen = (f" The run's concurrency comes from its own files: {source}: check that these describe the server this "
              "run used." if source else "")
    sized = (f" The server's capacity is set by the run's own files: {'; '.join(f'`{c}`' for c in capacity[:4])}: check "
             "that these are the values meant for this run (a debugging value left in a settings file sizes every "
             "server started from it)." if capacity else "")
    per_key = _limit_of_the_key(ev, groups)
    return Finding(
        category=THROUGHPUT_RESOURCES,
        failed_keys=keys_of(groups),
        title=(f"The model server is overloaded: {plural(attempts, 'failed attempt')} ({', '.join(statuses)}) "
               if overload.seen_overloaded else f"Model endpoint rate limited (HTTP 429): {plural(attempts, 'failed attempt')} ")
              + (f"with {overload.concurrency} requests in flight" if overload.concurrency else "under load"),
        evidence=unique([*overload.evidence, *(g.first for g in groups[:2])], limit=4),
        cause=f"Not a model fault: {overload.what()}. Requests beyond what it runs wait in its queue until the "
              "client times out, or are refused (429) once the queue is full. Affected: "
              f"{affected(ev, groups)}.",
        fix=f"{per_key}{at_once}Lower the concurrency {current}to about {target or 'what the server runs at once'} "
            f"(`gym eval run ... --concurrency {target or '<n>'}`, `gym-pipeline collect --concurrency "
            f"{target or '<n>'}`, or `concurrency:` in sweep.yaml), or give the model server more capacity (vLLM "
            "`--max-num-seqs`; the simulated policy's `--max-running` and `--max-waiting`, past which it answers 429 "
            "overloaded; more replicas behind the URL)." + chosen + sized + other_load + " Then collect the missing rollouts: "
            f"{resume_command(ev)}.",
    )


def rate_limited_at_lowest_load(ev: Evidence, groups: list[FailureGroup]) -> Finding | None:
    """Every request of a run that sent one or two at a time refused with 429, and no rollout collected: the
    endpoint's limit (a key's quota, a gateway's rate limit), which no lower concurrency gets under."""
    concurrency, concurrency_line = _concurrency(ev)
    limited = [g for g in groups if g.http_status == 429 and not OVERLOADED_REPLY.search(g.text)]
    if (concurrency is None or concurrency > SERIAL or not limited or ev.artifacts.rollouts.valid_rows
            or sum(g.count for g in limited) * 2 < sum(g.count for g in groups)):
        return None
    attempts = sum(g.count for g in limited)
    return Finding(
        category=MODEL_SERVING,
        failed_keys=keys_of(groups),
        title=f"The model endpoint rate limits every request (HTTP 429) at {concurrency} in flight: "
              f"{plural(attempts, 'failed attempt')}, no rollout collected",
        evidence=unique([limited[0].first, *([concurrency_line] if concurrency_line else [])]),
        cause=f"The run sent at most {plural(concurrency, 'request')} at once, about as few as a run can send, and the endpoint "
              "answered 429 to every attempt: not load from this run but the endpoint's own limit (the API key's "
              "rate limit or quota at the provider or the team's gateway, or a limiter set to refuse everything). "
              f"Lowering the concurrency cannot help. Affected: {affected(ev, groups)}.",
        fix=f"Check the endpoint's limit for this key: `curl -si {models_url(ev)}` with the run's key, and the 429's "
            "body and its `x-ratelimit-*` / `Retry-After` headers on a chat completion; raise the "
            "key's limit or quota with the provider or gateway owner, or use a key or endpoint with capacity; then "
            f"collect the missing rollouts: {resume_command(ev)}.",
    )
