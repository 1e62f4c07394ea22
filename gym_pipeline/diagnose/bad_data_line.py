"""The data file's bad line itself, when an error says a line of it is not JSON: what kind of damage it is.

An error names a file and line (ours: `data.jsonl:6: not valid JSON`; Gym's, wrapped over several log
lines: `Malformed JSON in '<file>' at line 1`). Reading that line says what happened, which the message
does not: a `#` comment header an export tool wrote, a blank line (which Gym's reader refuses), a last line cut
off mid-object (the file copied or
read while still being written, or a full disk), a byte order mark, a pretty-printed JSON document, a Python dict
as `print(row, file=out)` writes it.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

import orjson

from gym_pipeline.diagnose.evidence_line import EvidenceLine, excerpt

MAX_BYTES_READ = 64 << 20  # a file damaged further in is left to the message's own line number
_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


@dataclass(frozen=True)
class BadLine:
    path: Path
    line: int
    kind: str  # one of the keys of _READINGS
    text: str

    def evidence(self, shown_path: str) -> EvidenceLine:
        return EvidenceLine(file=shown_path, line=self.line, text=excerpt(self.text, 160) or "(empty)")

    @property
    def reading(self) -> str:
        return _READINGS[self.kind][0].format(line=self.line, name=self.path.name)

    @property
    def fix(self) -> str:
        return _READINGS[self.kind][1].format(line=self.line, path=self.path)


_READINGS = {
    "comment": ("line {line} of {name} is a comment (`#` or `//`): JSON Lines has no comments, so a header an "
                "export tool or a person wrote above the rows breaks the reader",
                "Remove the comment lines (`grep -v -e '^#' -e '^//' {path} > <clean>.jsonl`) and keep provenance in "
                "a separate file, then run again on a clean output path."),
    "cut": ("line {line}, the last line of {name}, ends in the middle of a JSON object and the file has no final "
            "newline: the file was cut short (copied or read while its export was still writing it, or a full disk "
            "or quota stopped the write)",
            "Copy or export the data file again whole and check the last line (`tail -c 200 {path}`; compare "
            "`sha256sum` or the row count with the original), then run again on a clean output path."),
    "bom": ("{name} starts with a UTF-8 byte order mark, which a spreadsheet or Windows editor puts there",
            "Remove the BOM (`sed -i '1s/^\\xEF\\xBB\\xBF//' {path}`), then run again."),
    "utf16": ("{name} is UTF-16 text (a spreadsheet's or editor's \"Unicode\" export), not UTF-8: every line reads as "
              "bytes the JSON reader refuses",
              "Convert it to UTF-8 (`iconv -f UTF-16 -t UTF-8 {path} > <new>.jsonl`), then run again on a clean output "
              "path."),
    "document": ("{name} holds a pretty-printed JSON document (an array or an object over many lines), not one JSON "
                 "object per line",
                 "Convert it to JSON Lines (`jq -c '.[]' {path} > <new>.jsonl` for an array, `jq -c . {path}` for "
                 "objects), then run again."),
    "blank": ("line {line} of {name} is blank: Gym's reader takes every line for one JSON object, and an empty line "
              "is none (`print(json.dumps(row), '\\n')` writes one after every row; files joined with blank lines "
              "between them do too)",
              "Remove the blank lines (`sed -i '/^[[:space:]]*$/d' {path}`; write rows with `f.write(json.dumps(row) + "
              "'\\n')`), then run again on a clean output path."),
    "python": ("line {line} of {name} is a Python dict as `print(row)` or `str(row)` writes it (single quotes, "
               "True/None), not JSON",
               "Write each row with `json.dumps(row)` in the script that makes {path} (not `print(row, file=...)` or "
               "`str(row)`), run it again, then run the eval again on a clean output path."),
    "glued": ("line {line} of {name} holds two rows run together (`}}{{`): the row before had no newline after it, "
              "as when files are joined (`cat a.jsonl b.jsonl`) and one of them does not end in a newline",
              "Split the line in two, and make every part end in a newline before joining (`sed -i -e '$a\\' "
              "<part>.jsonl`, or join with `awk 1 <parts> > {path}`, which ends every line); then run again on a "
              "clean output path."),
    "other": ("line {line} of {name} is not one JSON object",
              "Fix line {line} of {path} (`sed -n '{line}p' {path} | python -m json.tool`), then run again on a "
              "clean output path."),
}


def _python_literal(text: str) -> bool:
    try:
        return isinstance(ast.literal_eval(text), dict)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return False


def _two_objects(text: str) -> bool:
    """Whether `text` is a JSON object followed at once by another (two rows without the newline between them)."""
    decoder = json.JSONDecoder()
    try:
        first, end = decoder.raw_decode(text)
        second, _ = decoder.raw_decode(text[end:].lstrip())
    except ValueError:
        return False
    return isinstance(first, dict) and isinstance(second, dict)


def first_bad_line(path: Path, blank_lines_bad: bool = False) -> BadLine | None:
    """The first line of a JSON Lines file that is not a JSON object, read in its first MAX_BYTES_READ; a blank line
    is one only for readers that refuse them (`blank_lines_bad`: Gym's does, ours skips them)."""
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BYTES_READ)
    except OSError:
        return None
    if data.startswith(_UTF16_BOMS) or (len(data) > 1 and data[1:40:2].count(0) > 10):  # every other byte zero
        return BadLine(path, 1, "utf16", data[:80].decode("utf-16", errors="replace"))
    if data.startswith(_BOM):
        return BadLine(path, 1, "bom", data[3:80].decode(errors="replace"))
    lines = data.split(b"\n")
    whole = len(data) < MAX_BYTES_READ
    for index, raw in enumerate(lines):
        if not raw.strip():
            if blank_lines_bad and index < len(lines) - 1:  # not the end of the last line
                return BadLine(path, index + 1, "blank", "")
            continue
        try:
            if isinstance(orjson.loads(raw), dict):
                continue
        except orjson.JSONDecodeError:
            pass
        text = raw.decode(errors="replace")
        stripped = text.lstrip()
        if stripped.startswith(("#", "//")):
            kind = "comment"
        elif whole and index == len(lines) - 1 and stripped.startswith("{"):
            kind = "cut"  # the last line, with no newline after it
        elif stripped in ("[", "{") or stripped.startswith(("[{", "[ {")):
            kind = "document"
        elif stripped.startswith("{'") and _python_literal(stripped):
            kind = "python"
        elif _two_objects(stripped):
            kind = "glued"
        else:
            kind = "other"
        return BadLine(path, index + 1, kind, text)
    return None
