"""Step 1: `cd evals` in a script, with CDPATH exported by the user's shell settings (`export CDPATH=~/projects`).

With CDPATH set, `cd` with a bare relative name looks in CDPATH's folders first, goes to the first `evals` it finds
there (another project's), and prints where it went. In `DATA=$(cd evals && pwd)/tasks.jsonl` the print becomes part
of the value: two lines, another project's folder. The script never says so; the line cd printed is in the log.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CONFIG

# a cd to a bare relative name (not ./x, /x, ~/x or $X): the only kind CDPATH changes
_CD_BARE = re.compile(r"\bcd\s+[\"']?(?P<folder>[A-Za-z_][\w.-]*(?:/[\w.-]+)*)[\"']?\s*(?:&&|;|\)|$)")


def rule_cd_resolved_through_cdpath(ev: Evidence) -> list[Finding]:
    for script in ev.user_files:
        for number, line in enumerate(script.text.splitlines(), 1):
            if line.lstrip().startswith("#") or "CDPATH" in script.text:
                continue
            for call in _CD_BARE.finditer(line):
                folder = call["folder"]
                # cd prints the folder it went to when CDPATH found it; that print ends a line of the log (alone, or
                # at the end of an echo of the value that took it in), and it is not the run's own folder
                printed = re.compile(rf"(?P<path>/[^\s'\"]*/{re.escape(folder)})/?$", re.M)
                for log, text in ev.log_heads:
                    said = next((match for match in printed.finditer(text)
                                 if Path(match["path"]).parent.name != ev.run_dir.name), None)
                    if said is None:
                        continue
                    return [Finding(
                        category=CONFIG,
                        title=f"{script.name}:{number} runs `cd {folder}` with CDPATH set: it went to "
                              f"{said['path']}, another folder of that name, and printed it",
                        evidence=[EvidenceLine(file=script.name, line=number, text=line.strip()),
                                  EvidenceLine(file=ev.rel(log), line=text.count("\n", 0, said.start()) + 1,
                                               text=text[text.rfind("\n", 0, said.start()) + 1:said.end()].strip())],
                        cause=f"CDPATH was exported to the script (most often by ~/.bashrc or a profile, for the "
                              f"prompt): with it, `cd {folder}` looks in CDPATH's folders before the current one, went "
                              f"to {said['path']}, and printed that path. Whatever the script took from there (a "
                              "path built with `$(cd ... && pwd)` holds the print too) is another folder's, not "
                              "the run's.",
                        fix=f"In {script.name}:{number} write `cd ./{folder}` instead of `cd {folder}` (a path with a slash ignores "
                            "CDPATH), or "
                            "put `unset CDPATH` at the top of the script; keep CDPATH out of the environment scripts "
                            "inherit (set it without `export` in ~/.bashrc, for interactive shells only); then run "
                            "again.",
                    )]
    return []
