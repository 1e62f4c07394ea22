"""Step 3: a JSON settings file that gives one key twice, with two values: the reader keeps the last.

A user adds this week's value as a new line (`"model_url": "http://...:8001/v1"`) and leaves last week's below it.
JSON allows the duplicate and `json.load` (like most readers) keeps the last one without a word: the run uses the
old value and every command exits 0. Read in the settings files the run's scripts name.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.data_rows import keys_given_twice
from gym_pipeline.diagnose.user_scripts import UserFile
from gym_pipeline.diagnose.vocabulary import CONFIG

MAX_BYTES = 1 << 20  # a settings file, not data


def _settings_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8") if path.stat().st_size <= MAX_BYTES else None
    except (OSError, ValueError):
        return None


def _duplicate_in(text: str) -> tuple[str, list[Any]] | None:
    """The first key of the file's objects given twice with two values: (key, its values in order)."""
    return next(((key, values) for key, values in keys_given_twice(text, nested=True)
                 if any(value != values[-1] for value in values)), None)


def _readers(ev: Evidence, name: str) -> list[UserFile]:
    """The user's files that name the settings file, the Python ones that parse JSON first."""
    naming = [file for file in ev.user_files if re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])", file.text)]
    parsing = [file for file in ev.user_files if file.suffix == ".py" and "json.load" in file.text]
    return [*parsing, *naming] if naming else []


def rule_settings_key_given_twice(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for path in sorted(ev.run_dir.glob("*.json")):
        readers = _readers(ev, path.name)
        if not readers or (text := _settings_text(path)) is None or (found := _duplicate_in(text)) is None:
            continue
        key, values = found
        lines = text.splitlines()
        at = [number for number, line in enumerate(lines, 1) if re.search(rf'"{re.escape(key)}"\s*:', line)]
        used, reader = values[-1], readers[0].name
        return [Finding(
            category=CONFIG,
            title=f"{path.name} gives `{key}` twice ({', '.join(map(str, at))}): {reader} reads the last, "
                  f"{excerpt(json.dumps(used), 80)}",
            evidence=[EvidenceLine(file=path.name, line=number, text=lines[number - 1].strip()) for number in at],
            cause=f"A JSON object may hold a duplicate key, and `json.load` keeps its last value without a warning: "
                  f"the run used `{key}` = {excerpt(json.dumps(used), 80)}, not "
                  f"{excerpt(json.dumps(values[0]), 80)} given above it (a value added as a new line, the old "
                  "one left). Every command exits 0.",
            fix=f"In {path.name}, keep one `{key}` line (the value meant) and delete the duplicate key (a JSON "
                f"linter that refuses duplicate keys catches the next one); then run {reader} again.",
        )]
    return []
