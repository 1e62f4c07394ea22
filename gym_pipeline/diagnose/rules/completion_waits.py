"""Step 6: a script that waits for a completion line in a job's log, which an earlier run of the job already wrote.

`sbatch eval.sbatch`, then `until grep -q "EVAL COMPLETE" logs/weekly_eval.log; do sleep 5; done`, then publish: the
job's log is one file for every week (`#SBATCH --open-mode=append`, or a fixed `--output` the script never clears),
so last week's "EVAL COMPLETE" is in it before this week's job has started. The wait ends at once, and the script
publishes (or profiles, or copies) last week's results; nothing fails. The log then holds the line twice.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

# `until grep -q "EVAL COMPLETE" logs/eval.log`, `while ! grep -qs 'DONE' "$LOG"` (a fixed path only)
_WAIT_FOR_LINE = re.compile(r"^\s*(?:until|while\s+!)\s+grep\s+(?:-\w+\s+)*(?P<quote>[\"'])(?P<marker>[^\"']+)"
                            r"(?P=quote)\s+[\"']?(?P<log>[^\s\"';|&$]+)")
_APPEND_MODE = re.compile(r"^\s*#SBATCH\s+--open-mode[= ]append\b", re.M)
_WAITS_FOR_THE_JOB = re.compile(r"\bsbatch\b[^\n#]*\s(?:--wait|-W)\b|^\s*srun\b", re.M)


def _cleared_before(text: str, log: str, before: int) -> bool:
    """Whether the script removes or empties `log` before its line `before` (`rm -f log`, `: > log`, `> log`)."""
    name = re.escape(log)
    return any(re.search(rf"^\s*(?:rm\s+(?:-\w+\s+)*[\"']?{name}|:?\s*>\s*[\"']?{name}|truncate\b[^\n]*{name})", line)
               for line in text.splitlines()[:before - 1])


def rule_completion_line_of_an_earlier_run(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file, number, line, match in lines_matching(ev.user_files, _WAIT_FOR_LINE):
        log, marker = match["log"], match["marker"]
        path = ev.run_dir / log
        if not path.is_file() or _cleared_before(file.text, log, number) or _WAITS_FOR_THE_JOB.search(file.text):
            continue
        found = [(n, text) for n, text in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
                 if marker in text]
        if len(found) < 2:
            continue
        appended = next(((f, n, text) for f, n, text, _ in lines_matching(ev.user_files, _APPEND_MODE)), None)
        how = (f"`{appended[2].strip()}` ({appended[0].name}:{appended[1]}) keeps every run's output in it"
               if appended else "the script never clears it, so it keeps every run's output")
        return [Finding(
            category=CACHE_RESUME,
            title=f"{file.name}:{number} waits for {marker!r} in {log}, which an earlier run already wrote there: the "
                  f"wait ended at once, before this run's job had finished ({len(found)} such lines in the log)",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      *(EvidenceLine(file=log, line=n, text=text.strip()) for n, text in found[:2]),
                      *([EvidenceLine(file=appended[0].name, line=appended[1], text=appended[2].strip())]
                        if appended else [])],
            cause=f"{log} is one file for every run of the job: {how}. Its first {marker!r} is an earlier run's, so "
                  f"`grep` found it as soon as the job was submitted, and what {file.name} does after the wait "
                  "(publish, profile, copy) used the earlier run's results while this run's job was still to run. "
                  "Nothing failed.",
            fix=f"In {file.name}, wait for the job itself, not for a line its log may already hold ({marker!r} is "
                "there from an earlier run): `sbatch --wait` "
                "(or `JOB=$(sbatch --parsable ...)`, then wait until `squeue -h -j $JOB` is empty and check `sacct -j "
                "$JOB -o State`); or give each run its own log (`--output=logs/weekly_eval_%j.log`, without "
                f"`--open-mode=append`) and remove {log} before submitting; then run the step after the wait again on "
                "this run's results.",
        )]
    return []
