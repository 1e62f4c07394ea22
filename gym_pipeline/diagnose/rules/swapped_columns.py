"""Step 2 (read before the canned replies it explains): the question and its answer swapped.

Labels that are questions, prompts that are answers.

A labelling sheet re-exported with its columns in another order (`answer, question`, as its header says), read by a
prep that skips the header and unpacks each line by position (`question, answer = line.split("\t")`): every prompt is
a bare answer and every `expected_answer` a question, so nothing can match and every rollout scores 0. Named when
most labels of the materialized rows are questions, with the table's header and the prep's unpacking line.
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

_ROWS_READ = 200
_QUESTION_WORDS = 3
# `question, answer = line.rstrip("\n").split("\t")`: a line unpacked by position
_UNPACKED = re.compile(r"^\s*(?P<names>\w+\s*,\s*\w+(?:\s*,\s*\w+)*)\s*=\s*[^\n]*\.split\(")


def _labels(path: Path) -> list[str]:
    labels = []
    with path.open("rb") as rows:
        for line, _ in zip(rows, range(_ROWS_READ), strict=False):
            try:
                row = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(row, dict) and isinstance(row.get("expected_answer"), str):
                labels.append(row["expected_answer"])
    return labels


def rule_question_and_answer_swapped(ev: Evidence) -> list[Finding]:
    path = ev.artifacts.files.materialized
    if ev.run_dir is None or not path.is_file() or len(labels := _labels(path)) < 2:
        return []
    # a question: words ending with a question mark (not a label whose letters an encoding replaced by `?`)
    questions = [label for label in labels if label.rstrip().endswith("?") and len(label.split()) >= _QUESTION_WORDS]
    if len(questions) * 2 <= len(labels):
        return []
    unpacked = next(((file, number, line.strip(), match) for file, number, line, match in
                     lines_matching(ev.user_files, _UNPACKED, {".py"})
                     if "answer" in match["names"] and "question" in match["names"]), None)
    header = _header_naming_both(ev)
    evidence = [EvidenceLine(file=ev.rel(path), line=1, text=f"expected_answer: {questions[0]}")]
    if header:
        evidence.append(header)
    if unpacked:
        evidence.append(EvidenceLine(file=unpacked[0].name, line=unpacked[1], text=unpacked[2]))
    order = f" ({header.file}'s header: `{header.text}`)" if header else ""
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{len(questions)} of {len(labels)} labels are questions (`{questions[0][:60]}`): the question and the "
              "answer columns were swapped",
        evidence=evidence,
        cause=f"The rows' `expected_answer` holds the question and the prompt the answer: the table the data was made "
              f"from has its columns in another order{order} than "
              + (f"{unpacked[0].name}:{unpacked[1]} unpacks (`{unpacked[2]}`, by position, after skipping the header)"
                 if unpacked else "the prep reads") + ". No answer equals a question, so every rollout scores 0; "
              "every command exits 0.",
        fix=(f"In {unpacked[0].name} (line {unpacked[1]}), read the columns by the header's names (`csv.DictReader(f, "
             "delimiter=\"\\t\")` and `row[\"question\"]`, `row[\"answer\"]`) instead of by position"
             if unpacked else "Read the table's columns by the header's names, not by position")
            + (f", so the export's order{order} does not matter" if header else "")
            + "; build the data again, then materialize and collect.",
    )]


def _header_naming_both(ev: Evidence) -> EvidenceLine | None:
    """The first line of a table in the run folder whose columns name both the answer and the question."""
    for path in sorted(p for suffix in ("*.tsv", "*.csv") for p in ev.run_dir.glob(suffix)):
        try:
            first = path.open(encoding="utf-8", errors="replace").readline().strip()
        except OSError:
            continue
        names = [name.strip().lower() for name in re.split(r"[\t,;]", first)]
        if any("answer" in name for name in names) and any("question" in name for name in names):
            return EvidenceLine(file=ev.rel(path), line=1, text=", ".join(re.split(r"[\t,;]\s*", first)))
    return None
