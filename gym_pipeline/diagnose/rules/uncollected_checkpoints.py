"""A driver that evaluates several checkpoints in turn and collects against only some of them.

A Python driver taking `step=URL` pairs names each checkpoint's server as it reaches it; our collect closes each
collection with `N collected, ... -> out.jsonl`. A server named with no collection after it (before the next one is
named) got no request: the driver reused another checkpoint's results for it, through a cache or a "done already"
check keyed by what both checkpoints share (the inputs path under `functools.cache` with the URL a global, a results
folder named after the URL's last part, `v1` for every endpoint). Its results and profile are the other checkpoint's,
and every command exits 0. The same across logs, when the driver runs once per checkpoint with a log of its own: one
log collects, the other profiles without collecting; a log that names no server, named after its checkpoint
(`drive_eval_step_0200.log`), is that checkpoint's when it says it reused results (a results folder keyed by the ISO
week alone). Read before the replicas of other checkpoints, which two servers
named in one log are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.checkpoint_choice import started_model_servers
from gym_pipeline.diagnose.rules.time_budgets import COLLECT_DONE
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_SKIPPED = re.compile(r"^.*\b(?:already (?:evaluated|done|collected|exists?)|skipping|skipped|cached|reusing)\b.*$",
                      re.I | re.M)
_PROFILED = re.compile(r"^Reward profile completion:", re.M)  # our profile's first line
_CACHE_DECORATOR = re.compile(r"^\s*@(?:functools\.)?(?:cache|lru_cache)\b")
_STEP_IN_NAME = re.compile(r"step_?0*(?P<step>\d+)")
# a key made of the date alone: `date.today().strftime("%G-W%V")`, `$(date +%F)`
_DATE_KEY = re.compile(r"\bstrftime\(|\bdate\s+[\"']?\+%")


@dataclass(frozen=True)
class _Segment:
    """Where a log names one checkpoint's server, up to where it names the next (or its end), and the collect closings
    in between."""

    log: Path
    head: str
    named: re.Match[str]  # where the log first names the server
    end: int
    step: int
    closings: list[re.Match[str]]


def _named_in_turn(ev: Evidence) -> Iterator[list[_Segment]]:
    """The segments of each log (not a server's own) naming the servers of two checkpoints or more, in turn."""
    servers = started_model_servers(ev)
    if len({step for _, step, _ in servers}) < 2:
        return
    own_logs = {line.file for _, _, line in servers}
    for log, head in ev.log_heads:
        if ev.rel(log) in own_logs:
            continue
        named = sorted(((found, step) for address, step, _ in servers
                        if (found := re.search(rf"{re.escape(address)}(?!\d)", head))), key=lambda pair: pair[0].start())
        if len({step for _, step in named}) < 2:
            continue
        closings = list(COLLECT_DONE.finditer(head))
        ends = [found.start() for found, _ in named[1:]] + [len(head)]
        yield [_Segment(log, head, found, end, step,
                        [closing for closing in closings if found.start() < closing.start() < end])
               for (found, step), end in zip(named, ends, strict=True)]


def _one_checkpoint_per_log(ev: Evidence) -> list[_Segment]:
    """A segment for each log (not a server's own) that names one checkpoint's server and went as far as a profile:
    a driver run once per checkpoint, each run logging on its own. A log naming no server, named after a checkpoint
    (`drive_eval_step_0200.log`) and saying it reused results, is that checkpoint's."""
    servers = started_model_servers(ev)
    own_logs = {line.file for _, _, line in servers}
    steps = {step for _, step, _ in servers}
    segments = []
    for log, head in ev.log_heads:
        named = {step: found for address, step, _ in servers
                 if (found := re.search(rf"{re.escape(address)}(?!\d)", head))}
        if not named and (of_log := _STEP_IN_NAME.search(log.name)) and int(of_log["step"]) in steps \
                and (skipped := _SKIPPED.search(head)):
            named = {int(of_log["step"]): skipped}
        if ev.rel(log) in own_logs or len(named) != 1 or not _PROFILED.search(head):
            continue
        [(step, found)] = named.items()
        segments.append(_Segment(log, head, found, len(head), step, list(COLLECT_DONE.finditer(head))))
    return segments if len({segment.step for segment in segments}) >= 2 else []


def evaluated_in_turn(ev: Evidence) -> bool:
    """Whether a log names checkpoints' servers one after another with a collection after one of them: a driver
    evaluating checkpoints in turn, not a gateway spreading one run over replicas."""
    return any(any(segment.closings for segment in segments) for segments in _named_in_turn(ev))


def checkpoint_left_uncollected(ev: Evidence) -> Finding | None:
    for segments in [*_named_in_turn(ev), _one_checkpoint_per_log(ev)]:
        collected = next((segment for segment in segments if segment.closings), None)
        # a server named after a collection and none after it (one named before any collection is a setting printed)
        skipped = next((segment for segment in segments if not segment.closings and collected is not None
                        and (segment.log != collected.log or segment.named.start() > collected.named.start())), None)
        if collected is not None and skipped is not None and collected.step != skipped.step:
            return _finding(ev, collected, skipped)
    return None


def _finding(ev: Evidence, collected: _Segment, skipped: _Segment) -> Finding:
    step, log = skipped.step, skipped.log
    said_skip = _SKIPPED.search(skipped.head, skipped.named.start(), skipped.end)
    other_step, closing = collected.step, collected.closings[0]
    drivers = [file for file in ev.user_files if file.suffix == ".py" and "collect" in file.text]
    driver = next((file for file in drivers if Path(file.name).stem == log.stem), drivers[0] if len(drivers) == 1
                  else None)
    cache = next(lines_matching([driver], _CACHE_DECORATOR), None) if driver else None
    dated = next(lines_matching([driver], _DATE_KEY), None) if driver else None
    named = driver.name if driver else "the driver"
    reuse = []
    if cache:
        reuse.append(f"{driver.name}:{cache[1]} `{cache[2].strip()}` caches a function by its arguments alone, and "
                     "the endpoint is not one of them (a global URL): give the URL (or the step) as an argument, or "
                     "drop the cache for collect")
    if said_skip:
        reuse.append(f"`{said_skip[0].strip()}`: the folder or cache key it checks must name the checkpoint (its step "
                     "or its whole URL), not only what every checkpoint shares (the inputs, a part of the URL"
                     + (f", the date: {driver.name}:{dated[1]} `{dated[2].strip()}`" if dated else "") + ")")
    return Finding(
        category=CACHE_RESUME,
        title=f"{ev.rel(log)} names the step {step} server and no collect ran against it: step {step}'s results are "
              f"step {other_step}'s",
        evidence=[line_of_match(ev.rel(log), skipped.head, skipped.named),
                  *([line_of_match(ev.rel(log), skipped.head, said_skip)]
                    if said_skip and said_skip.start() != skipped.named.start() else []),
                  line_of_match(ev.rel(collected.log), collected.head, closing)],
        cause=f"The log shows a collect closing (`{closing[0].strip()}`) after the step {other_step} server was named, "
              f"and none after the step {step} server was: {named} reused step {other_step}'s collection for step "
              f"{step} (a cache or a 'done already' check keyed by what both share, not by the checkpoint). The step "
              f"{step} server got no request; the results and profile filed under step {step} are step "
              f"{other_step}'s model, and every command exited 0.",
        fix=f"In {named}, key what it reuses by the checkpoint"
            + (f" ({'; '.join(reuse)})" if reuse else " (the results folder or cache key must name the step or URL)")
            + f"; then collect step {step} again on a clean output path and profile it.",
    )


def rule_checkpoint_left_uncollected(ev: Evidence) -> list[Finding]:
    found = checkpoint_left_uncollected(ev)
    return [found] if found is not None else []
