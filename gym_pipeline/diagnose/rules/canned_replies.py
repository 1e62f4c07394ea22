"""One whole reply to many different prompts, scored 0: something other than the model wrote it.

A model answering its prompts gives each its own text. The very same response to several tasks comes from something
between the run and the model, or in its place: a gateway that answers a backend error with a fixed fallback reply
(`200`, so Gym never retries), a proxy that caches POST requests by their URI and replays the first answer, or a
mock server from a test setup that the run's model URL still names. Every command exits 0; only the rewards tell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt, line_of_match
from gym_pipeline.diagnose.findings import Finding, model_url_of
from gym_pipeline.diagnose.logs import LogHit, find_log_files
from gym_pipeline.diagnose.origin import address_of
from gym_pipeline.diagnose.rules.quality import prompts_at_fault
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, MODEL_SERVING

MIN_TASKS = 3  # tasks expecting different answers given the same reply
# ... and that share of the scored tasks: a model may well give one short reply (`Answer: B`) to a few of many tasks
MIN_SHARE = 0.3
_ASSIGNED_NAME = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)\s*[:=]")
_CACHES_POST = re.compile(r"cache\w*\b[^\n]*\bPOST\b", re.IGNORECASE)
_STAND_IN = re.compile(r"mock|fake|stub|dummy|stand.?in", re.IGNORECASE)
_LOG_HEAD_BYTES = 4096  # of each log: where a server says where it listens


def _most_shared(ev: Evidence, scored_zero: dict[str, set[int]]) -> tuple[str, set[int]] | None:
    """The text (a whole reply, an extracted answer) scored 0 in the most tasks, when tasks with different expected
    answers got it: at least MIN_TASKS of them, and MIN_SHARE of the tasks scored."""
    quality = ev.artifacts.quality
    least = max(MIN_TASKS, MIN_SHARE * len(quality.scored_of_task))
    shared = [(text, tasks) for text, tasks in scored_zero.items()
              if len({quality.expected_of_task.get(task) for task in tasks} - {None}) >= least]
    return max(shared, key=lambda item: len(item[1])) if shared else None


def rule_one_reply_to_different_prompts(ev: Evidence) -> list[Finding]:
    quality = ev.artifacts.quality
    shared = _most_shared(ev, quality.replies_scored_zero)
    if shared is None or prompts_at_fault(ev):
        return []  # the same reply to broken prompts is the data's fault (step 5)
    reply, tasks = shared
    evidence = [quality.reply_examples[reply].model_copy(update={"file": ev.rel(ev.artifacts.files.rollouts)})]
    source = _source_of(ev, reply)
    if source is not None:
        evidence += source.evidence
    kept = [hit for hit in ev.hits("builtin_resumed") if hit.text.lstrip().startswith("0 collected")] \
        + ev.hits("gym_resume_nothing_to_run")
    if kept:
        return [_kept_by_a_resume(ev, reply, tasks, evidence, kept[-1], source)]
    other_loopback = _other_loopback_family(ev)
    return [Finding(
        category=MODEL_SERVING,
        title=f"{len(tasks)} different tasks got the very same reply, {excerpt(reply, 60)!r}, and scored 0",
        evidence=evidence + ([other_loopback[0]] if other_loopback and source is None else []),
        cause=f"A model gives each prompt its own text; {len(tasks)} tasks with different questions got this one, "
              "word for word. Something other than the model wrote it: a gateway's fallback reply sent with a 200 "
              "when the model server failed (Gym then never sees the error and never retries), a proxy replaying a "
              "cached answer, or a stand-in (mock) server the model URL names."
              + (f" {source.said}." if source is not None else ""),
        fix=(source.fix if source is not None else
             (other_loopback[1] if other_loopback else "")
             + f"Send one of these prompts to {model_url_of(ev)} by hand and see what answers; take out whatever "
             "answers in the model's place (a fallback reply, a cache of POST requests, a mock server, another "
             "run's server).")
            + " Then collect again on a clean output path and profile.",
    )]


def rule_answers_from_a_second_server(ev: Evidence) -> list[Finding]:
    """One answer no task expects, scored 0, in some repeats of many tasks whose other repeats got theirs right: two
    servers answered the requests, one of which does not know these tasks."""
    quality = ev.artifacts.quality
    expected = {answer.strip().lower() for answer in quality.expected_answers}
    unexpected = {answer: tasks for answer, tasks in quality.answers_scored_zero.items()
                  if answer.strip().lower() not in expected and not _NUMBER.fullmatch(answer.strip())}
    shared = _most_shared(ev, unexpected)
    if shared is None or prompts_at_fault(ev) or _most_shared(ev, quality.replies_scored_zero) is not None:
        return []  # one whole reply to many tasks is the finding above
    answer, tasks = shared
    right_elsewhere = [task for task in tasks if quality.reward_sum_of_task.get(task, 0) > 0]
    if len(right_elsewhere) < MIN_TASKS:
        return []
    example = quality.zero_answer_examples[answer].model_copy(update={"file": ev.rel(ev.artifacts.files.rollouts)})
    other_loopback = _other_loopback_family(ev)
    return [Finding(
        category=MODEL_SERVING,
        title=f"{len(tasks)} different tasks got the answer {excerpt(answer, 40)!r} in some rollouts, and {len(right_elsewhere)} "
              "of them their right answer in others: a second server answered part of the requests",
        evidence=[example] + ([other_loopback[0]] if other_loopback else []),
        cause=f"Repeats of one task got the model's answer in some rollouts and {excerpt(answer, 40)!r}, an answer no "
              f"task expects, in others, across {len(tasks)} tasks with different expected answers: the requests "
              "reached two servers, one of which does not know these tasks (a balancer or gateway over replicas of "
              "other weights, a canary share, another server on the address the model URL names).",
        fix=(other_loopback[1] if other_loopback else "")
            + f"Send one prompt several times to {model_url_of(ev)} by hand and compare the replies; find what answers "
            "besides the run's server (`ss -ltnp`, a gateway's upstreams) and take it out; then collect again on a "
            "clean output path and profile.",
    )]


_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")
_LOCALHOST_URL = re.compile(r"^https?://localhost:(?P<port>\d+)")


def _other_loopback_family(ev: Evidence) -> tuple[EvidenceLine, str] | None:
    """For a model URL naming `localhost` while the run's model server listens on one loopback address of that port
    (127.0.0.1 or ::1): the server's line, and a fix naming the other address, where another server can listen."""
    url = model_url_of(ev) or ""
    if not (named := _LOCALHOST_URL.match(url)):
        return None
    listens = re.compile(rf"https?://(?P<host>127\.0\.0\.1|\[::1\]):{named['port']}\b")
    for log, text in ev.log_heads:
        if match := listens.search(text):
            host = match["host"]
            other = "[::1]" if host.startswith("127") else "127.0.0.1"
            line = line_of_match(ev.rel(log), text, match)
            return line, (f"The model URL names localhost, which resolves to both ::1 and 127.0.0.1, while the "
                          f"model server listens on {host}:{named['port']} only: a server left on "
                          f"{other}:{named['port']} (another run's) answers the connections that go there. Name "
                          f"the address itself (`--model-url http://{host}"
                          f":{named['port']}/v1`), find the other with `ss -ltnp 'sport = :{named['port']}'` and "
                          "stop it. ")
    return None


def _kept_by_a_resume(ev: Evidence, reply: str, tasks: set[int], evidence: list[EvidenceLine], kept: LogHit,
                      source: _Source | None) -> Finding:
    """The one reply is an earlier collection's (a dry run against a stand-in), which a --resume kept whole."""
    return Finding(
        category=CACHE_RESUME,
        title=f"{len(tasks)} different tasks got the very same reply, {excerpt(reply, 60)!r}, from an earlier collection "
              "that the last one's --resume kept: it sent the model nothing",
        evidence=[kept.evidence(), *evidence],
        cause=f"The last collection resumed and found every rollout already done ({kept.file}:{kept.line}), so the "
              "rollouts are those of an earlier collection into the same file, whose replies did not come from the "
              "model: one text for tasks with different questions"
              + (f" ({source.said})" if source is not None else "")
              + ". A --resume trusts whatever rows the output holds, whoever wrote them.",
        fix="Collect again into a clean output path, or without --resume (move the old rollouts.jsonl away first); "
            f"keep dry runs against a stand-in{f' ({source.evidence[0].file})' if source is not None else ''} in "
            "their own run folder, and pass --resume only to continue an interrupted collection of the same run. "
            "Then profile.",
    )


@dataclass
class _Source:
    evidence: list[EvidenceLine]
    said: str
    fix: str


def _source_of(ev: Evidence, reply: str) -> _Source | None:
    """What the user's files or logs show wrote the reply, and what to change there."""
    url = model_url_of(ev)
    setting = next(lines_matching(ev.user_files, re.compile(re.escape(url))), None)
    url_where = [EvidenceLine(file=setting[0].name, line=setting[1], text=setting[2].strip())] if setting else []
    url_named = f"{url} ({setting[0].name}:{setting[1]})" if setting else url
    first_line = next(line.strip() for line in reply.splitlines() if line.strip())
    for file, number, line, _ in lines_matching(ev.user_files, re.compile(re.escape(first_line[:40]))):
        here = EvidenceLine(file=file.name, line=number, text=excerpt(line.strip(), 160))
        name = _ASSIGNED_NAME.match(line)
        what = f"`{name['name']}`" if name else "this text"
        if _STAND_IN.search(file.name):
            return _Source([here, *url_where], f"{file.name}:{number} is a stand-in server's fixed answer",
                           f"The model URL {url_named} names the server of {file.name}, a stand-in that answers "
                           f"every request with {what}: point the model URL at the model server, and stop the "
                           "stand-in.")
        return _Source([here], f"{file.name}:{number} writes it ({what})",
                       f"{file.name}:{number} writes this reply ({what}): let it pass the backend's error on (its own "
                       f"status, so Gym retries and records the failure) instead of sending {what} as an answer, and "
                       "find why the model server failed (its log).")
    for file, number, line, _ in lines_matching(ev.user_files, _CACHES_POST):
        return _Source([EvidenceLine(file=file.name, line=number, text=excerpt(line.strip(), 160))],
                       f"{file.name}:{number} caches POST requests",
                       f"{file.name}:{number} (`{excerpt(line.strip(), 80)}`) caches POST requests, whose URI is the "
                       "same for every chat completion: take POST out of it (cache only GET, or key a cache on the "
                       "request body), and bypass the cache for evaluations.")
    address = address_of(url)
    for log in find_log_files(ev.run_dir) if address is not None else ():
        with log.open("rb") as handle:
            head = handle.read(_LOG_HEAD_BYTES).decode("utf-8", errors="replace")
        at = head.find(f":{address[1]}")
        if at < 0 or "model_server" in log.name:
            continue
        number = head.count("\n", 0, at) + 1
        text = head.splitlines()[number - 1]
        return _Source([EvidenceLine(file=ev.rel(log), line=number, text=excerpt(text.strip(), 160)), *url_where],
                       f"The model URL is where the server logging to {ev.rel(log)} listens",
                       f"The model URL {url_named} is where the server logging to {ev.rel(log)} listens, not the "
                       "model server: point the model URL at the model server (its log's address), and stop the "
                       "stand-in.")
    return None
