"""Rows cut at a comma inside a quoted CSV field: a converter that splits the export's lines by hand.

A spreadsheet quotes the cells that hold a comma (`"In which city, in France, is the Louvre?",Paris`). A script that
turns the export into task rows with `line.split(",")` cuts such a line at the comma inside the quotes: the prompt is
the opening fragment (`"In which city`, a quote never closed) and the label the next fragment (`in France`). The rows
are valid JSON, every command exits 0, and those tasks score 0 whatever the model answers.
"""

from __future__ import annotations

from gym_pipeline.diagnose.data_preparation import files_handed_to, hand_split_line
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, path_of
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

MIN_CUT_TASKS = 2


def rows_cut_at_quoted_commas(ev: Evidence) -> list[int]:
    """The tasks whose prompts open a double quote and never close it, none of whose rollouts scored: CSV rows cut at
    the commas inside their quoted fields (empty when there are too few)."""
    quality = ev.artifacts.quality
    tasks = sorted(quality.unclosed_quote_tasks)
    if quality.unclosed_quote_example is None or len(tasks) < MIN_CUT_TASKS \
            or not any(quality.scored_of_task.get(task) for task in tasks) \
            or any(quality.reward_sum_of_task.get(task, 0) > 0 for task in tasks):
        return []
    return tasks


def rule_rows_cut_at_quoted_commas(ev: Evidence) -> list[Finding]:
    a = ev.artifacts
    quality = a.quality
    tasks = rows_cut_at_quoted_commas(ev)
    if not tasks:
        return []
    line, start = quality.unclosed_quote_example
    evidence = [EvidenceLine(file=a.rel(a.materialized.path), line=line,
                             text=f"task {tasks[0]}'s prompt opens a quote it never closes: {start!r}")]
    split = hand_split_line(ev.user_files)
    if split is None:
        where = "The script that turned the table into rows split each line at every comma"
        how = "Read the table with a CSV parser (Python's `csv.reader` or `csv.DictReader`, `pandas.read_csv`)"
    else:
        evidence.append(EvidenceLine(file=split.file.name, line=split.number, text=split.text.strip()))
        tables = [name for name in files_handed_to(ev.user_files, split.file) if not name.endswith(".jsonl")]
        source = f" {', '.join(tables)}" if tables else " the table"
        where = f"{split.named()} splits each line of{source} at every comma"
        how = (f"In {split.file.name}, read{source} with the `csv` module (`csv.reader(f)` or `csv.DictReader(f)`) "
               f"instead of `{split.text.strip()}`")
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{len(tasks)} tasks' prompts open a double quote they never close, and none of their rollouts scored: "
              "rows cut at a comma inside a quoted CSV field",
        evidence=evidence,
        cause=f"{where}, including the commas inside quoted cells: for a question that holds a comma the prompt is "
              "its opening fragment and the `expected_answer` the next fragment of the question, so these tasks "
              f"({', '.join(map(str, tasks[:8]))}) score 0 whatever the model answers.",
        fix=f"{how}, which keeps quoted fields whole; build the rows again, check that no prompt starts with a lone "
            f"`\"`, then materialize again and collect. The materialized rows: {path_of(a.materialized)}.",
    )]
