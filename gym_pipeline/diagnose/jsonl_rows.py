"""The rows of a JSONL file as a diagnosis reads them: the JSON objects it can parse, and nothing raised.

A folder under diagnosis may hold a torn last line, a hand-edited row or a file another tool wrote. The readings that
look at its rows take the objects they can and skip the rest: the bad lines have a reading of their own
(`bad_data_line`). A stage, by contrast, stops at the first bad line (`core.formats.iter_jsonl_dicts`).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import orjson


def readable_rows(path: Path, limit: int | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number from 1, object) of each of the first `limit` lines of `path` (all of them: None) that holds a
    JSON object; none when the file cannot be opened."""
    try:
        file = path.open("rb")
    except OSError:
        return
    with file:
        for number, raw in enumerate(islice(file, limit), 1):
            try:
                value = orjson.loads(raw)
            except orjson.JSONDecodeError:
                continue
            if isinstance(value, dict):
                yield number, value
