"""Step 6: a run script that pauses between its collections (pacing kept from a rate-limited API), cut by its time
budget.

A script written for a hosted API that allowed so many requests a minute collects in chunks and sleeps after each
one. Pointed at a server without that limit, each chunk takes a second and the run is almost all sleeping: under a
CI step's time limit (`timeout`, exit 124) it ends with chunks never collected. Nothing failed but time, spent in
`sleep`: throughput, with the pause to take out.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, plural
from gym_pipeline.diagnose.logs import TIMED_OUT
from gym_pipeline.diagnose.rules.time_budgets import COLLECT_DONE, COLLECTS
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, UserFile
from gym_pipeline.diagnose.vocabulary import THROUGHPUT_RESOURCES

_SLEEP = re.compile(r"^\s*sleep\s+(?P<amount>\d+(?:\.\d+)?)(?P<unit>[smh]?)\s*(?:[;#].*)?$")
_LOOP = re.compile(r"^\s*(?:for|while)\b")  # not `until`, nor `while !`: a wait for something to be ready
_WAIT = re.compile(r"^\s*(?:until\b|while\s+!|while\s+\[\s*!)")
_UNIT_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600}
MIN_PAUSE_S = 5
MOSTLY_PAUSED = 0.8  # of the time the collections and their pauses took
_PACING_WORDS = re.compile(r"rate|limit|per minute|a minute|quota|throttl|pac(?:e|ing)", re.I)


def _paced_loops(file: UserFile):
    """(line number, sleep line, seconds, pacing comment or None) of each `sleep` after a collect inside a loop."""
    lines = file.text.splitlines()
    for number, line in enumerate(lines, 1):
        sleep = _SLEEP.match(line)
        if sleep is None or (seconds := float(sleep["amount"]) * _UNIT_SECONDS[sleep["unit"]]) < MIN_PAUSE_S:
            continue
        start = next((i for i in range(number - 2, -1, -1) if _LOOP.match(lines[i]) or _WAIT.match(lines[i])
                      or re.match(r"^\s*done\b", lines[i])), None)
        if start is None or not _LOOP.match(lines[start]) or _WAIT.match(lines[start]):
            continue
        if not any(COLLECTS.search(text) for text in lines[start:number - 1]):
            continue
        comment = next((text.strip() for text in [*reversed(lines[max(0, start - 3):start]), *lines[start:number]]
                        if "#" in text and _PACING_WORDS.search(text.split("#", 1)[1])), None)
        yield number, line.strip(), seconds, comment


def rule_collections_paced_past_their_time_budget(ev: Evidence) -> list[Finding]:
    timed_out = ev.first_in_log_heads(TIMED_OUT)
    if timed_out is None:
        return []
    runs = [float(found["seconds"]) for _, text in ev.log_heads for found in COLLECT_DONE.finditer(text)]
    for file in ev.user_files:
        if file.suffix not in SCRIPT_SUFFIXES:
            continue
        for number, line, seconds, comment in _paced_loops(file):
            paused, collecting = len(runs) * seconds, sum(runs)
            if not runs or paused < MOSTLY_PAUSED * (paused + collecting):
                continue
            why = f" (`{comment}`)" if comment else ""
            return [Finding(
                category=THROUGHPUT_RESOURCES,
                title=f"{file.name}:{number} sleeps {seconds:g} s after each collect: {plural(len(runs), 'chunk')} "
                      f"collected in {collecting:.1f} s in all and about {paused:g} s spent pausing, before the time budget "
                      "ended the run",
                evidence=[EvidenceLine(file=file.name, line=number, text=line), timed_out[0]],
                cause=f"The script collects in chunks and pauses `{line}` after each one{why}, pacing meant for a "
                      "rate limit; the server this run used answered each chunk in about a second, so nearly all of "
                      "the step's time went to sleeping, and its time limit (exit 124) ended the run with chunks never "
                      "collected. Nothing failed but time.",
                fix=f"In {file.name} line {number} (`{line}`), take the pause out for a server without that rate limit "
                    "(pace with `--concurrency` where a limit is real), or give the step a time limit that covers the "
                    "pauses; then collect the chunks left (`--resume`) and profile.",
            )]
    return []
