"""Step 6: a collection run under a time budget (`timeout 40 ...`, a CI step's limit) that the budget cut short.

`timeout` ends the command when its time is up and exits 124: the rollouts collected by then are kept, the rest are
missing, and the step after it (a profile) refuses the partial run or profiles part of it. Nothing failed but time,
so it is throughput: the collection needs longer than it was given. Run as many collect processes of a few rows
each (batches of one row, left from debugging), most of that time goes to starting a process per batch, which the
`collected ... in 0.1s` lines tell apart from the time the rows took. A Python driver bounds its steps the same way
(`subprocess.run(argv, timeout=TIMEOUT_S[step])`) and, caught, goes on with what collect wrote.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.logs import TIMED_OUT
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import THROUGHPUT_RESOURCES

# `timeout 40 bash -c 'for part in ...; do gym-pipeline collect ...'`, `timeout 5m gym-pipeline collect ...`
_TIME_BUDGET = re.compile(r"\btimeout\s+(?:-\w+\s+\S+\s+|--[\w-]+(?:=\S+)?\s+)*(?P<budget>\d+(?:\.\d+)?[smh]?)\s")
COLLECTS = re.compile(r"\bgym[-_]pipeline(?:\.cli)?\s+collect\b|\bgym\s+eval\s+run\b|\bcollect\b")
# our collect's closing line: `1 collected, 0 already done, 0 failed of 1 in 0.1s -> out.jsonl`
COLLECT_DONE = re.compile(r"^(?P<collected>\d+) collected, \d+ already done, \d+ failed of (?P<of>\d+) in "
                          r"(?P<seconds>\d+(?:\.\d+)?)s\b", re.M)
# the variable a `split -l "$BATCH_SIZE"` reads, set to a small number: `BATCH_SIZE=1`
_BATCH_SIZE = re.compile(r"^\s*(?:export\s+)?\w*(?:BATCH|CHUNK|ROWS)\w*=\s*[\"']?[1-4][\"']?\s*(?:#|$)", re.I)
SMALL_BATCH_ROWS = 4  # collect processes of at most this many rows each spend most of their time starting up
MIN_PROCESSES = 5


def _script_body(file_text: str, number: int) -> str:
    """The budgeted command from line `number` on: the lines up to the end of a quoted `bash -c` body."""
    lines = file_text.splitlines()[number - 1:]
    body = lines[0]
    if body.count("'") % 2 == 1:
        for line in lines[1:]:
            body += "\n" + line
            if line.count("'") % 2 == 1:
                break
    return body


# a program the budgeted command runs: `python drive_eval.py`, `bash collect.sh`
_PROGRAM_RUN = re.compile(r"(?:^|[\s/])(?P<name>[\w.-]+\.(?:py|sh))\b")
# a list comprehension that starts each shard's process and waits for it before starting the next
_WAITED_IN_TURN = re.compile(r"\[\s*[^\]\n]*\)\.wait\(\)\s+for\s+\w+\s+in\b")


def _collects(ev: Evidence, body: str) -> bool:
    """Whether a budgeted command collects: itself, or through a program of the run's that does."""
    if COLLECTS.search(body):
        return True
    named = {match["name"] for match in _PROGRAM_RUN.finditer(body)}
    return any(file.name in named and COLLECTS.search(file.text) for file in ev.user_files)


def collection_cut_by_its_time_budget(ev: Evidence, *, only_start_up_bound: bool = False) -> Finding | None:
    """The finding for a collection that a `timeout` in the user's scripts ended; with `only_start_up_bound`, only when
    many collect processes of a few rows each spent the budget starting up."""
    a = ev.artifacts
    if not a.missing_keys:
        return None
    budgeted = next(((file, number, line, match) for file, number, line, match
                     in lines_matching(ev.user_files, _TIME_BUDGET, SCRIPT_SUFFIXES)
                     if _collects(ev, _script_body(file.text, number))), None)
    timed_out = ev.first_in_log_heads(TIMED_OUT)
    if budgeted is None or timed_out is None:
        return None
    file, number, line, match = budgeted
    runs = [(found, log, text) for log, text in ev.log_heads for found in COLLECT_DONE.finditer(text)]
    small = [run for run in runs if int(run[0]["of"]) <= SMALL_BATCH_ROWS]
    per_process = len(small) >= MIN_PROCESSES and len(small) >= len(runs) / 2
    if only_start_up_bound and not per_process:
        return None
    missing = len(a.missing_keys)
    evidence = [EvidenceLine(file=file.name, line=number, text=line.strip()), timed_out[0]]
    if per_process:
        found, log, text = small[0]
        evidence.append(line_of_match(ev.rel(log), text, found))
        rows_time = sum(float(run[0]["seconds"]) for run in small)
        cause = (f"The step ran {len(small)} collect processes of at most "
                 f"{SMALL_BATCH_ROWS} rows each before `timeout {match['budget']}` ended it; their rows took {rows_time:.1f} s "
                 "in all (`collected ... in` lines), so nearly all the budget went to starting a process per batch "
                 "(the interpreter, imports, a new connection), not to the model.")
        batch_size = next((m for _, _, _, m in lines_matching([file], _BATCH_SIZE)), None)
        fix = ("Collect in one process (or a few large batches) so startup is paid once: a bigger batch size in "
               + (f"{file.name} (`{batch_size[0].strip()}`)" if batch_size else file.name)
               + ", with `--concurrency` for the parallelism, then `--resume` after a crash instead of small "
               f"batches; or give the step more than `timeout {match['budget']}`. Then collect the {missing} missing "
               "rollouts (`--resume`) and profile.")
    elif waited := next(lines_matching(ev.user_files, _WAITED_IN_TURN, {".py"}), None):
        driver, at, text = waited[0].name, waited[1], waited[2].strip()
        evidence.append(EvidenceLine(file=driver, line=at, text=text))
        cause = (f"`timeout {match['budget']}` in {file.name}:{number} ended the collection (exit 124) while its "
                 f"shards ran one after another: {driver}:{at} `{text}` calls `.wait()` on each shard's process "
                 "inside the comprehension that starts them, so each shard is waited for before the next starts, and "
                 "the shards take their sum, not the longest of them.")
        fix = (f"In {driver} (line {at}), start every shard first and wait afterwards: `procs = [start(i) for i in "
               "...]` (each a `subprocess.Popen`), then `codes = [p.wait() for p in procs]`, so the shards run at "
               f"once; then collect the {missing} missing rollouts (`--resume`) and profile.")
    else:
        cause = (f"`timeout {match['budget']}` in {file.name}:{number} ended the collection when its time was up (exit 124): "
                 "the rollouts collected by then were kept and the rest were never asked for. Nothing failed but "
                 "time: at this concurrency and latency the collection needs longer than the budget.")
        fix = (f"Give the collection the time it needs (a longer `timeout` in {file.name}, or the CI step's limit), "
               "or make it faster (a higher `--concurrency` the server can serve, fewer repeats); then collect the "
               f"{missing} missing rollouts with `--resume` and profile.")
    return Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"{file.name}:{number} gives the collection `timeout {match['budget']}`, which ended it before it finished: "
              f"{missing} rollouts were never collected"
              + (f" ({len(small)} collect processes of a few rows each, mostly start-up)" if per_process else ""),
        evidence=evidence,
        cause=cause,
        fix=fix,
    )


# a Python driver's bound on a step it runs: `subprocess.run(argv, check=True, timeout=TIMEOUT_S[step])`
_DRIVER_TIMEOUT = re.compile(r"\b(?:run|call|check_call|check_output|wait|communicate)\([^#\n]*\btimeout\s*=\s*"
                             r"(?P<value>[\w.]+(?:\[[^\]\n]+\])?)")
# what the driver (or Python) says when the bound ends collect: `warning: collect exceeded 20 s`, `TimeoutExpired`
_COLLECT_TIMED_OUT = re.compile(r"^[^\n]*\bcollect\b[^\n]*\b(?:exceeded|timed out|time limit)\b[^\n]*"
                                r"|^[^\n]*TimeoutExpired\b[^\n]*\bcollect\b[^\n]*", re.M | re.I)


def _driver_budget(text: str, value: str) -> str | None:
    """The seconds a driver's `timeout=` gives collect: a number, a name bound to one, or a dict's "collect" entry."""
    if re.fullmatch(r"\d+(?:\.\d+)?", value):
        return value
    name = value.split("[", 1)[0]
    entry = re.search(rf"^{re.escape(name)}\s*(?::[^=\n]*)?=\s*\{{[^}}]*[\"']collect[\"']\s*:\s*(?P<s>\d+(?:\.\d+)?)",
                      text, re.M) if "[" in value else \
        re.search(rf"^{re.escape(name)}\s*(?::[^=\n]*)?=\s*(?P<s>\d+(?:\.\d+)?)\b", text, re.M)
    return entry["s"] if entry else None


def _collection_cut_by_a_drivers_timeout(ev: Evidence) -> Finding | None:
    """A Python driver that runs collect under `timeout=` and goes on once it expires: the rollouts missing are the
    ones the bound left uncollected."""
    missing = len(ev.artifacts.missing_keys)
    said = ev.first_in_log_heads(_COLLECT_TIMED_OUT)
    bounded = next(((file, number, line, match) for file, number, line, match
                     in lines_matching(ev.user_files, _DRIVER_TIMEOUT) if file.name.endswith(".py")
                     and COLLECTS.search(file.text)), None)
    if not missing or said is None or bounded is None:
        return None
    file, number, line, match = bounded
    budget = _driver_budget(file.text, match["value"])
    given = f"{budget} s" if budget else f"`timeout={match['value']}`"
    return Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"{file.name}:{number} gives collect {given} (`timeout={match['value']}`), which ended it before it "
              f"finished: {missing} rollouts were never collected",
        evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), said[0]],
        cause=f"{file.name} runs collect as a subprocess bounded by `timeout={match['value']}`"
              + (f" ({budget} s)" if budget else "") + ": when it expired Python killed collect, and the driver went "
              "on with what it had written. Nothing failed but time: at this concurrency and latency the collection "
              "needs longer than the bound, which a smaller set (a smoke run) fits in.",
        fix=f"Give collect the time the full set needs: raise `{match['value']}` in {file.name} (the collect step's "
            "timeout) to the full set's time, or scale it with the number of rollouts, or make the collection faster "
            f"(a higher `--concurrency` the server can serve); then collect the {missing} missing rollouts with "
            "`--resume` and profile.",
    )


def rule_collection_cut_by_its_time_budget(ev: Evidence) -> list[Finding]:
    found = collection_cut_by_its_time_budget(ev) or _collection_cut_by_a_drivers_timeout(ev)
    return [found] if found is not None else []
