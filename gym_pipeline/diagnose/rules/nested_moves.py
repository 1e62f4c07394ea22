"""Step 5: `mv NEW DEST` meant to replace the folder DEST, run while DEST still exists: mv moves NEW into it.

A weekly script puts this week's export in place with `mv export_2026-W49 data`. When last week's data/ is still
there, mv does not replace it but moves the export inside (data/export_2026-W49/), and the run reads last week's
files from data/, every command exiting 0. Told from the run folder: DEST/NEW exists beside files of DEST that the
script reads, and a file of the same name in both differs.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

# `mv SRC DEST` of two plain relative names, without -T (--no-target-directory)
_MOVE = re.compile(r"^\s*mv\s+(?:-[a-zA-SU-Z]+\s+)*(?P<source>[\w.-]+)/?\s+(?P<destination>[\w.-]+)/?\s*(?:#.*)?$")


def rule_folder_moved_into_the_one_it_meant_to_replace(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None:
        return []
    for file in shell_files(ev):
        folder = ev.run_dir / PurePosixPath(file.name).parent
        lines = file.text.splitlines()
        for number, line in enumerate(lines, start=1):
            if (move := _MOVE.match(line)) is None:
                continue
            destination = folder / move["destination"]
            nested = destination / move["source"]
            if not nested.is_dir():
                continue
            stale = [path.name for path in nested.iterdir() if path.is_file() and (destination / path.name).is_file()
                     and (destination / path.name).read_bytes() != path.read_bytes()]
            read_later = next(((later, text.strip()) for later, text in enumerate(lines[number:], start=number + 1)
                               for name in stale if f"{move['destination']}/{name}" in text), None)
            if not stale or read_later is None:
                continue
            src, dest = move["source"], move["destination"]
            return [Finding(
                category=CACHE_RESUME,
                title=f"{file.name}:{number} `mv {src} {dest}` moved {src} into the existing {dest}/ instead of "
                      f"replacing it: the run read the old {dest}/{stale[0]}",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                          EvidenceLine(file=file.name, line=read_later[0], text=read_later[1])],
                cause=f"When {dest}/ exists, `mv {src} {dest}` moves {src} inside it ({dest}/{src}/) rather than "
                      f"putting it in its place. {dest}/ was still there from the run before, so "
                      f"{file.name}:{read_later[0]} read the old {dest}/{stale[0]}, which differs from the new "
                      f"{dest}/{src}/{stale[0]}; every command exited 0.",
                fix=f"Replace the folder in {file.name}:{number}: `rm -rf {dest} && mv -T {src} {dest}` (`-T` never "
                    f"moves into a folder), or copy the new files over the old ones (`cp -a {src}/. {dest}/`); then materialize again and collect.",
            )]
    return []
