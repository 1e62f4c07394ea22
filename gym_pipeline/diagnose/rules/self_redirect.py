"""Step 1: a script that rewrites a file by redirecting a command's output onto the file it reads.

`sed 's/a file/the file/' "$f" > "$f"`: the shell opens (and empties) the output before the command starts, so the
command reads an empty file and writes nothing; every file the loop went over is left empty. Nothing fails. Named
when files of that name in the run folder are empty now.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.user_scripts import FOR_ITEMS
from gym_pipeline.diagnose.vocabulary import CONFIG, DATA_SCHEMA

_ONTO_ITS_INPUT = re.compile(r"^\s*(?P<command>sed|awk|gawk|jq|sort|grep|cut|tr|uniq|cat|iconv|head|tail|python3?)\b"
                             r"[^|>\n]*?\s(?P<quote>[\"']?)(?P<file>[^\s\"'<>|]+)(?P=quote)\s*>\s*(?P=quote)(?P=file)"
                             r"(?P=quote)\s*(?:;|&&|\|\||#|$)")
_SETTINGS_SUFFIXES = {".yaml", ".yml", ".env", ".toml", ".cfg", ".ini", ".conf", ".sh"}
MAX_FILES_LOOKED_AT = 5000


def _file_name(lines: list[str], number: int, written: str) -> str | None:
    """The name of the file a line writes: itself, or the last part of the glob of the `for` loop whose variable it
    is (`for f in */instruction.md` -> instruction.md)."""
    variable = re.fullmatch(r"\$\{?(?P<name>[A-Za-z_]\w*)\}?", written)
    if variable is None:
        return Path(written).name
    loop = next((m for text in reversed(lines[:number - 1]) if (m := FOR_ITEMS.match(text))
                 and m["name"] == variable["name"]), None)
    return Path(loop["items"].split()[0].strip("\"'")).name if loop else None


def _empty_files_named(run_dir: Path, name: str) -> list[Path]:
    found = []
    for count, path in enumerate(run_dir.rglob(name)):
        if count >= MAX_FILES_LOOKED_AT:
            break
        if path.is_file() and path.stat().st_size == 0:
            found.append(path)
    return sorted(found)


def rule_file_emptied_by_a_redirect_onto_its_input(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file in shell_files(ev):
        lines = file.text.splitlines()
        for number, line in enumerate(lines, 1):
            if (match := _ONTO_ITS_INPUT.match(line)) is None or "*" in (name := _file_name(lines, number,
                                                                                              match["file"]) or "*"):
                continue
            empty = _empty_files_named(ev.run_dir, name)
            if not empty:
                continue
            command = match["command"]
            written = f'"{match["file"]}"' if match["file"].startswith("$") else match["file"]
            shown = ", ".join(ev.rel(path) for path in empty[:3]) + (", ..." if len(empty) > 3 else "")
            return [Finding(
                category=CONFIG if Path(name).suffix in _SETTINGS_SUFFIXES else DATA_SCHEMA,
                title=f"{file.name}:{number} redirects {command}'s output onto the file it reads ({written} > "
                      f"{written}): {len(empty)} {name} {'file is' if len(empty) == 1 else 'files are'} empty",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          *(EvidenceLine(file=ev.rel(path), text="empty (0 bytes)") for path in empty[:2])],
                cause=f"The shell opens `> {written}` and empties it before {command} starts, so {command} reads an "
                      f"empty file and writes nothing back: every {name} the line went over is empty now ({shown}). "
                      "What read them afterwards (the loader, the agent, the materialized rows) got nothing, "
                      "without an error from the script.",
                fix=f"In {file.name}:{number}, write to a new file and move it over the old one (`{command} ... "
                    f"{written} > {written}.tmp && mv {written}.tmp {written}`" + (", or `sed -i`" if command == "sed"
                                                                                   else "")
                    + f"); get the emptied {name} files back from version control or their source (`git checkout -- "
                      f"'*{name}'`), then run again.",
            )]
    return []
