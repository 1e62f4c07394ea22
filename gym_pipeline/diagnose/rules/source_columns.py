"""Labels taken from the wrong column of a spreadsheet export: a converter that reads columns by position.

A script that turns an annotation tool's CSV export into task rows often reads `record[2]` for the answer. When the
export gains a column (a `category` between question and answer), the same position now holds another field: every
expected answer is the task's category, the rows are valid, and every rollout scores 0. The export in the run folder
shows it: the expected answers are, row for row, the values of a column that is not the answer column.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.export_questions import export_table, exports_beside
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

_ANSWER_COLUMN = re.compile(r"^(?:answer|label|expected(?:_answer)?|target|gold|solution|ground_truth)s?$", re.I)
MOSTLY_ZERO = 0.8  # of the scored rollouts scoring 0
SAME_ROWS = 0.8  # of the tasks whose expected answer is that column's value in the same row


def rule_labels_from_another_column(ev: Evidence) -> list[Finding]:
    quality = ev.artifacts.quality
    expected = quality.expected_of_task
    if ev.run_dir is None or not ev.run_dir.is_dir() or len(expected) < 3 \
            or quality.zero_rewards < MOSTLY_ZERO * max(quality.scored_rows, 1):
        return []
    for export in exports_beside(ev.run_dir):
        read = export_table(export)
        if read is None:
            continue
        header, rows = read
        answer_columns = [i for i, name in enumerate(header) if _ANSWER_COLUMN.match(name.strip())]
        for column, name in enumerate(header):
            if column in answer_columns or not answer_columns:
                continue
            same = sum(1 for task, label in expected.items()
                       if task < len(rows) and column < len(rows[task]) and rows[task][column].strip() == label)
            if same < SAME_ROWS * len(expected):
                continue
            meant = header[answer_columns[0]].strip()
            reader = next(iter(lines_matching(ev.user_files, re.compile(rf"\b(?!argv\b)[A-Za-z_]\w*\[\s*{column}\s*\]"), {".py"})), None)
            by_position = (f" {reader[0].name}:{reader[1]} reads it by position (`{reader[2].strip()}`): the "
                           "export gained or moved a column, and position "
                           f"{column} is now `{name}`." if reader else "")
            return [Finding(
                category=DATA_SCHEMA,
                title=f"The expected answers are the `{name}` column of {ev.rel(export)}, not its `{meant}` column: "
                      f"{same} of {len(expected)} tasks",
                evidence=[EvidenceLine(file=ev.rel(export), line=1, text=excerpt(",".join(header))),
                          EvidenceLine(file=ev.rel(export), line=2, text=excerpt(",".join(rows[0]))),
                          *([EvidenceLine(file=reader[0].name, line=reader[1], text=reader[2].strip())]
                            if reader else [])],
                cause=f"Row for row, each task's expected_answer is the value of the export's `{name}` column "
                      f"(task 0: {expected.get(0, '')!r}, where `{meant}` is {rows[0][answer_columns[0]]!r})."
                      + by_position + " Every answer is graded against another field, so the rollouts score 0 "
                      "whatever the model says.",
                fix=(f"In {reader[0].name}, read the label by its column's name (`csv.DictReader`, "
                     f"`record[\"{meant}\"]`), not by position (position {column} is now `{name}`); " if reader else
                     f"Take expected_answer from the export's `{meant}` column, not its `{name}` column; ")
                    + "convert the export again, materialize again and collect on a clean output path.",
            )]
    return []
