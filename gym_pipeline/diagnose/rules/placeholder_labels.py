"""Step 6: tasks whose expected answer is a placeholder (`TODO`, `TBD`, `???`, `<answer>`): drafts that reached the
eval. Every answer to them scores 0, and the run's mean counts them as failures of the model.

The usual way in: the preparation script keeps the reviewed rows with a truth test on a flag
(`if not item.get("reviewed"): continue`), and the export writes the flag as text (`"reviewed": "false"`), which
Python takes for true, so the drafts pass the filter. Named when the script and an export beside it show it.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding, path_of, plural
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.user_scripts import UserFile, lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

_PLACEHOLDER_LABEL = re.compile(r"(?:todo|tbd|tba|fixme|x{3,}|\?{2,}|placeholder|answer here|<[^<>]{1,30}>)",
                                re.IGNORECASE)
# a filter by a flag's truth: `if not item.get("reviewed"):`, `if row["approved"]:`
_FLAG_TEST = re.compile(r"\bif\s+(?:not\s+)?\w+(?:\.get\(\s*|\[\s*)[\"'](?P<flag>\w+)[\"']")
_TEXT_FALSE = r"\"{flag}\"\s*:\s*\"(?P<value>false|False|FALSE|no|No|0)\""
_EXPORT_BYTES = 1 << 16  # of each data file beside the run: enough to see how it writes the flag
_LINES_SEARCHED = 100_000  # of the materialized rows, for the line of a draft's first row
_RUN_FILES = re.compile(r"^rollouts|^tasks\.jsonl$")  # the run's own files, not an export


def rule_placeholder_labels(ev: Evidence) -> list[Finding]:
    quality = ev.artifacts.quality
    drafts = {task: label for task, label in quality.expected_of_task.items()
              if _PLACEHOLDER_LABEL.fullmatch(label) and quality.scored_of_task[task]
              and quality.reward_sum_of_task.get(task, 0) == 0}
    if not drafts:
        return []
    task, label = next(iter(drafts.items()))
    materialized = ev.artifacts.materialized.path
    evidence = [EvidenceLine(file=ev.rel(materialized), line=_first_line_of_task(materialized, task),
                             text=f"task {task}: expected_answer={label!r}")]
    passed = _draft_filter(ev)
    how = ""
    if passed is not None:
        script, number, text, export, value, _ = passed
        evidence += [EvidenceLine(file=script.name, line=number, text=excerpt(text.strip())),
                     EvidenceLine(file=export[0], line=export[1], text=excerpt(export[2]))]
        how = (f" {script.name}:{number} keeps rows by the truth of a flag, and {export[0]} writes it as text "
               f"({value}): a non-empty string is true in Python, so the drafts passed the filter.")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{plural(len(drafts), 'task')} of the run expect a placeholder ({label!r}): drafts reached the eval, "
              "and every answer to them scored 0",
        evidence=evidence,
        cause=f"The expected answer of {plural(len(drafts), 'task')} ({sorted(drafts)[:8]}) is a placeholder a "
              "reviewer had not replaced, so no answer can match it: the run counts them as the model's failures."
              + how,
        fix=(f"In {passed[0].name}:{passed[1]}, test the flag's value, not its truth (`item.get(\"{passed[5]}\") "
             f"in (True, \"true\")`), or have the export write JSON booleans ({passed[3][0]} writes `{passed[4]}`), "
             if passed else "Drop the rows whose `expected_answer` is a placeholder from the source data, ")
            + "then prepare the data again, materialize and collect; the materialized rows: "
            f"{path_of(ev.artifacts.materialized)}.",
    )]


def _first_line_of_task(materialized: Path | None, task: int) -> int | None:
    if materialized is None or not materialized.is_file():
        return None
    return next((number for number, row in readable_rows(materialized, _LINES_SEARCHED)
                 if row.get("_ng_task_index") == task), None)


def _draft_filter(ev: Evidence) -> tuple[UserFile, int, str, tuple[str, int, str], str, str] | None:
    """(script, line number, line, (export, line, text), the value as written, flag) of a filter on a flag's truth
    whose export beside the run writes the flag's false as text."""
    for script, number, text, match in lines_matching(ev.user_files, _FLAG_TEST, {".py"}):
        flag = match["flag"]
        pattern = re.compile(_TEXT_FALSE.format(flag=re.escape(flag)))
        for path in sorted(ev.run_dir.glob("*.json*")):
            if _RUN_FILES.match(path.name) or not path.is_file():
                continue
            with path.open("rb") as file:
                head = file.read(_EXPORT_BYTES).decode("utf-8", errors="replace")
            if found := pattern.search(head):
                row = head.count("\n", 0, found.start()) + 1
                said = head.splitlines()[row - 1]
                return script, number, text, (ev.rel(path), row, said), found.group(0), flag
    return None
