"""Data rows that give a field twice: JSON readers keep one of the values without a word.

A script that edits JSONL rows with text tools (`sed 's/^{/{"expected_answer": "x", /'`) adds a key in front of the
one already there: the row is valid JSON, every reader keeps the last value (Python's json, orjson, pandas, Gym), and
the correction never reaches the run.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from gym_pipeline.diagnose.artifacts import data_files_in
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.unrecorded_source import DATA_FOLDERS
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

MAX_LINES = 20_000  # of one data file


def _keys_given_twice(line: str) -> list[tuple[str, list[object]]]:
    """(key, its values in order) of each top-level key a JSON object line gives more than once."""
    pairs: list[list[tuple[str, object]]] = []

    def keep(items: list[tuple[str, object]]) -> dict:
        pairs.append(items)
        return dict(items)

    try:
        json.loads(line, object_pairs_hook=keep)
    except ValueError:
        return []
    top = pairs[-1] if pairs else []  # the outermost object is built last
    values: dict[str, list[object]] = {}
    for key, value in top:
        values.setdefault(key, []).append(value)
    return [(key, given) for key, given in values.items() if len(given) > 1]


def rule_data_rows_give_a_field_twice(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    folders = [ev.run_dir, *(ev.run_dir / name for name in DATA_FOLDERS if (ev.run_dir / name).is_dir())]
    for path in (p for folder in folders for p in data_files_in(folder, ev.artifacts.files)):
        found = _first_row_with_a_key_twice(path)
        if found is None:
            continue
        number, key, given, rows = found
        writers = [file.name for file in ev.user_files if key in file.text and path.name in file.text]
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{ev.rel(path)} gives `{key}` twice in {rows} row{'s' if rows > 1 else ''}: readers keep the last "
                  f"value ({excerpt(repr(given[-1]), 40)}), not {excerpt(repr(given[0]), 40)}",
            evidence=[EvidenceLine(file=ev.rel(path), line=number, text=f"`{key}`: " + " then ".join(
                excerpt(repr(value), 40) for value in given))],
            cause=f"A row with the key `{key}` twice is valid JSON, and every reader (Python's json, orjson, pandas, "
                  "Gym) keeps the last value without a word: a correction written in front of the old value (a text "
                  "edit such as `sed 's/^{/{\"key\": ...,/'`) never reaches the run."
                  + (f" {', '.join(writers)} edits `{key}` in {path.name}." if writers else ""),
            fix=f"Edit the rows as JSON, not as text ({', '.join(writers) or 'the script that edits them'}: "
                f"`jq -c '.{key} = ...'`, or Python's json: load, set, dump), check that no row gives a key twice, then "
                "materialize again and collect.",
        )]
    return []


def _first_row_with_a_key_twice(path: Path) -> tuple[int, str, list[object], int] | None:
    """(line, key, its values, rows with a key twice) of the first row of a data file giving a key twice."""
    first, rows = None, 0
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(itertools.islice(handle, MAX_LINES), start=1):
                twice = _keys_given_twice(line) if line.count('":') > 1 else []
                if twice:
                    rows += 1
                    first = first or (number, *twice[0])
    except OSError:
        return None
    return (*first, rows) if first else None
