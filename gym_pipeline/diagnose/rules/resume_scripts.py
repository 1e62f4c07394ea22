"""A user's script that makes an interrupted collection worse: retries that start over, a done check that counts tasks.

- A loop that retries the collection (after a preemption, a `timeout`) without `--resume`: each attempt starts a
  fresh rollouts file and throws away what the attempt before it collected, so attempts that together would have
  finished never do.
- A "skip the collection when it is done" check that compares the rollouts file's lines with the number of tasks:
  with several repeats per task, a file cut short by an interruption already has as many lines as there are tasks,
  and the rerun skips the collection and profiles the partial file.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, resume_command
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, SHELL_LOOP, SHELL_LOOP_END, UserFile, assignment_of
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

_FOR_VARIABLE = re.compile(r"^\s*for\s+(?P<name>[A-Za-z_]\w*)\s+in\b")
_COLLECTS = re.compile(r"\b(?:gym-pipeline|cli)\s+collect\b|\bgym\s+eval\s+run\b")
_RESUMES = re.compile(r"--resume\b|\+\+resume=[Tt]rue")
# `[ $(wc -l < rollouts.jsonl) -ge $TASKS ]`: the rollouts file's lines against a count
_LINES_AGAINST = re.compile(r"\$\(\s*wc\s+-l\s*<?\s*(?P<file>\S*rollouts\S*\.jsonl)\s*\)\s*\"?\s*-(?:ge|eq|gt)\s+"
                            r"\"?\$\{?(?P<count>\w+)\}?")
_COUNTS_LINES_OF = re.compile(r"\bwc\s+-l\s*<?\s*(?P<file>\S+\.jsonl)")


def _scripts(ev: Evidence) -> list[UserFile]:
    return [file for file in ev.user_files if file.suffix in SCRIPT_SUFFIXES]


def _retry_loop_without_resume(file: UserFile) -> tuple[int, str, int, str] | None:
    """(loop line, its text, collect line, its text) of a loop that retries a collection without --resume: the same
    collection each time (a `for` whose variable the command uses goes over several collections, no retry)."""
    lines = file.text.splitlines()
    for number, line in enumerate(lines, 1):
        if not SHELL_LOOP.match(line):
            continue
        variable = _FOR_VARIABLE.match(line)
        for inner, text in enumerate(lines[number:], number + 1):
            if SHELL_LOOP_END.match(text):
                break
            command = text.rstrip("\\").strip()
            continued = inner
            while lines[continued - 1].rstrip().endswith("\\") and continued < len(lines):  # the whole command
                command += " " + lines[continued].strip()
                continued += 1
            over_items = variable is not None and re.search(rf"\$\{{?{variable['name']}\b", command)
            if _COLLECTS.search(command) and not _RESUMES.search(command) and not over_items:
                return number, line.strip(), inner, text.strip()
    return None


def rule_retries_that_start_over(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    if not a.missing_keys:
        return []
    for file in _scripts(ev):
        found = _retry_loop_without_resume(file)
        if found is None:
            continue
        loop_line, loop, collect_line, collect = found
        return [Finding(
            category=CACHE_RESUME,
            title=f"{file.name} retries the collection in a loop without --resume: each attempt starts over, and "
                  f"{len(a.missing_keys)} materialized rollouts are still missing",
            evidence=[EvidenceLine(file=file.name, line=loop_line, text=loop),
                      EvidenceLine(file=file.name, line=collect_line, text=collect)],
            cause="Without --resume a collection starts a fresh rollouts file: every attempt of the loop threw away "
                  "what the attempt before it had collected, so attempts that together would have finished each "
                  "stopped part way again, and the last one left a partial file.",
            fix=f"In {file.name}, add `--resume` to the collection the loop retries (each attempt then runs only the "
                f"keys without a rollout: {resume_command(ev)}); then profile.",
        )]
    return []


def rule_done_check_counts_tasks(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    rows = a.rollouts.valid_rows
    if not a.missing_keys or not a.materialized_tasks or rows < a.materialized_tasks:
        return []
    for file in _scripts(ev):
        for number, line in enumerate(file.text.splitlines(), 1):
            check = _LINES_AGAINST.search(line)
            if check is None:
                continue
            count = check["count"]
            assigned = assignment_of([file], count)
            counted = _COUNTS_LINES_OF.search(assigned[2]) if assigned else None
            if counted is None or "rollout" in counted["file"]:
                continue  # not a count of the data's tasks
            return [Finding(
                category=CACHE_RESUME,
                title=f"{file.name} takes {check['file']} as complete when it has as many lines as there are tasks "
                      f"({count}): a partial file with {rows} of {a.materialized.valid_rows} rollouts passed",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=assigned[1], text=assigned[2])],
                cause=f"{count} counts the lines of {counted['file']}, one per task, while the collection writes one "
                      f"line per task and repeat ({a.materialized.valid_rows} here): a collection interrupted part way "
                      "already had enough lines, so the rerun skipped it and went on with the partial file.",
                fix=f"In {file.name}, compare with the materialized rows (`wc -l < rollouts_materialized_inputs.jsonl`, "
                    f"tasks x repeats), not {count}, or always run the collection with --resume (it does only what is "
                    f"missing): {resume_command(ev)}; then profile.",
            )]
    return []
