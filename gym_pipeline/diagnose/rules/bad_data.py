"""Step 5: a data file an error calls malformed, read at its bad line to say what kind of damage it is."""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.artifacts import data_files_in, locate_named_file
from gym_pipeline.diagnose.bad_data_line import BadLine, first_bad_line
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA

# our commands' `data.jsonl:6: not valid JSON`; Gym's own message is the `gym_malformed_json` signature
_NAMED_BAD_LINE = re.compile(r"(?P<file>[^\s:'\"]+\.jsonl):(?P<line>\d+): not valid JSON")


def rule_bad_data_line(ev: Evidence) -> list[Finding]:
    said: list[EvidenceLine] = [hit.evidence() for hit in ev.hits("gym_malformed_json")[:1]]
    named: list[Path] = []
    for incident in ev.logs.incidents:
        if match := _NAMED_BAD_LINE.search(incident.text):
            said.append(incident.evidence())
            named.append(locate_named_file(match["file"], ev.run_dir))
    if not said:
        return []
    candidates = [*named, *data_files_in(ev.run_dir, ev.artifacts.files)]
    gyms = bool(ev.hits("gym_malformed_json"))  # Gym's reader refuses blank lines too
    bad = next((found for path in candidates if (found := first_bad_line(path, blank_lines_bad=gyms))), None)
    if bad is None:
        return []
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{bad.path.name} line {bad.line} is not JSON: {_KIND_TITLES[bad.kind]}",
        evidence=[*said[:1], bad.evidence(_shown(bad, ev))],
        cause=f"The reader refused the data, and the file says why: {bad.reading}.",
        fix=_writer_named(ev, bad) or bad.fix,
        explains=frozenset({"gym_malformed_json"}),
    )]


_WRITES_REPR = re.compile(r"\bprint\(\s*\w+\s*,\s*file\s*=|\.write\(\s*(?:str|repr)\(")


_JOINS_INTO = r"^\s*cat\s+(?P<parts>[^|>]+?)\s*>>?\s*\S*{name}\b"


def _joined_by(ev: Evidence, bad: BadLine) -> str | None:
    """For two rows run together: the user's line that joined files into the data, and the part without a final
    newline, in the fix."""
    joined = next(lines_matching(ev.user_files, re.compile(_JOINS_INTO.format(name=re.escape(bad.path.name)))), None)
    if joined is None:
        return None
    file, number, line, match = joined
    parts = match["parts"].split()
    unended = [part for part in parts if _ends_without_newline(locate_named_file(part, bad.path.parent))]
    return (f"{file.name}:{number} (`{line.strip()}`) joins {', '.join(parts)} into {bad.path.name}"
            + (f", and {', '.join(unended)} does not end in a newline: its last row and the next file's first became "
               f"line {bad.line}" if unended else "")
            + f". Join with `awk 1 {' '.join(parts)} > {bad.path.name}` (awk ends every line) or add the missing "
              "newline to the part; then run again on a clean output path.")


def _ends_without_newline(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            file.seek(-1, 2)
            return file.read(1) != b"\n"
    except OSError:
        return False


def _writer_named(ev: Evidence, bad: BadLine) -> str | None:
    """For a Python dict written as a row: the user's data script line that wrote it, in the fix; for two rows run
    together, the line that joined the files."""
    if bad.kind == "glued":
        return _joined_by(ev, bad)
    if bad.kind == "document":
        return _indented_by(ev)
    if bad.kind == "other":
        return _printed_into(ev, bad)
    if bad.kind != "python":
        return None
    writer = next(lines_matching(ev.user_files, _WRITES_REPR, {".py"}), None)
    if writer is None:
        return None
    file, number, line, _ = writer
    return (f"In {file.name}:{number}, write each row with `out.write(json.dumps(row) + \"\\n\")` instead of "
            f"`{line.strip()}`; run it again, then run the eval again on a clean output path.")


# the first words of what an `echo` or `print` says, up to its first variable (`echo "prep job $SLURM_JOB_ID"`)
_SAYS = re.compile(r"^\s*(?:echo|printf|print\()\s*(?:-\w+\s+)?f?[\"'](?P<words>[^\"'$%{]{4,})")


def _printed_into(ev: Evidence, bad: BadLine) -> str | None:
    """For a line of text in the data: where it was printed, when the data file is the stdout of a job or command
    (`sbatch --output=data.jsonl`, `python prep.py > data.jsonl`) that also prints messages, in the fix."""
    name = re.escape(bad.path.name)
    target = next(lines_matching(ev.user_files, re.compile(rf"(?:--output[= ]|\s-o\s*|>\s*)[\"']?(?:\S*/)?{name}\b")),
                  None)
    printed = next(((file, number, line) for file, number, line, match in lines_matching(ev.user_files, _SAYS)
                    if bad.text.startswith(match["words"])), None)
    if target is None or printed is None:
        return None
    return (f"{target[0].name}:{target[1]} makes {bad.path.name} the output of a job or command (`{target[2].strip()}`), "
            f"so everything it prints lands in the data: {printed[0].name}:{printed[1]} (`{printed[2].strip()}`) "
            f"printed line {bad.line} of it{' (the first line)' if bad.line == 1 else ''}. Write the rows to the file from the "
            "program itself (`--out data.jsonl`), or send the messages to stderr (`echo ... >&2`, "
            "`print(..., file=sys.stderr)`) and the job's own log elsewhere (`--output=logs/%x_%j.log`); write the "
            "data again, then run on a clean output path.")


# a row written indented: `json.dumps(row, indent=2)`, `json.dump(row, out, indent=4)`
_WRITES_INDENTED = re.compile(r"\bjson\.dumps?\([^\n]*\bindent\s*=\s*(?!None\b)\w")


def _indented_by(ev: Evidence) -> str | None:
    """For rows written over many lines: the user's data script line that indents them, in the fix."""
    writer = next(lines_matching(ev.user_files, _WRITES_INDENTED, {".py"}), None)
    if writer is None:
        return None
    file, number, line, _ = writer
    return (f"In {file.name}:{number}, write each row on one line, without `indent` (`out.write(json.dumps(row) + "
            f"\"\\n\")` instead of `{line.strip()}`): JSONL is one object per line, and reviewers can still read "
            "rows with `jq . <file>`; run it again, then run the eval again on a clean output path.")


_KIND_TITLES = {"utf16": "the file is UTF-16, not UTF-8", "comment": "a comment line",
                "cut": "the last line is cut off", "bom": "a byte order mark",
                "document": "a pretty-printed JSON document", "blank": "a blank line",
                "python": "a Python dict, not JSON", "glued": "two rows run together",
                "other": "a malformed line"}


def _shown(bad: BadLine, ev: Evidence) -> str:
    try:
        return str(bad.path.resolve().relative_to(ev.run_dir.resolve()))
    except ValueError:
        return str(bad.path)
