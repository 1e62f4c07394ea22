"""Step 1: a script runs a program by an absolute path that does not exist where the script ran.

bash says so for each command (`job.sbatch: line 11: /mnt/eval-tools/bin/gym-pipeline: No such file or directory`)
and goes on, so a job of such lines ends COMPLETED with nothing done. A path under a folder this machine does not
have at all (`/mnt/eval-tools`) is a share that is not mounted on the node: infra. A path whose folders are here but
not the program is the script's: config.
"""

from __future__ import annotations

import os
import re
from pathlib import PurePosixPath

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_pitfalls import shell_files
from gym_pipeline.diagnose.vocabulary import CONFIG, INFRA

_PROGRAM_MISSING = re.compile(r"^(?P<script>\S+): line (?P<line>\d+): (?P<program>/\S+): No such file or directory\s*$",
                              re.M)


def _share_root(program: PurePosixPath) -> PurePosixPath:
    """The first two folders of the path (`/mnt/eval-tools`): where a share is mounted."""
    return PurePosixPath(*program.parts[:3])


def rule_program_missing_where_the_script_ran(ev: Evidence) -> list[Finding]:
    said = ev.first_in_log_heads(_PROGRAM_MISSING)
    if said is None:
        return []
    line, match = said
    program, number = PurePosixPath(match["program"]), int(match["line"])
    # the script's line runs the program (its first word ends with the program's name): not a redirect's file
    script = next(((file, text.strip()) for file in shell_files(ev)
                   if number <= len(lines := file.text.splitlines())
                   and (text := lines[number - 1]).split() and text.split()[0].endswith(program.name)), None)
    if script is None:
        return []
    file, text = script
    root = _share_root(program)
    unmounted = not os.path.exists(root)
    runs = len(_PROGRAM_MISSING.findall("\n".join(head for _, head in ev.log_heads)))
    common = (f"bash could not find {program} for `{text[:120]}` ({line.where}: No such file or directory) and went "
              "on with the next line, so nothing the script meant to run ran"
              + (f" ({runs} commands in all)" if runs > 1 else "") + ", and the job or script still ended as if done.")
    if unmounted:
        return [Finding(
            category=INFRA,
            title=f"{file.name}:{number} runs {program}, and {root} is not on this node (a share not mounted here): "
                  "nothing ran",
            evidence=[line, EvidenceLine(file=file.name, line=number, text=text)],
            cause=f"{common} {root} does not exist on this machine at all: the share or automount the script relies "
                  "on is not mounted on the node that ran it.",
            fix=f"Mount {root} on that node (or ask its admins why it is missing there: `ls {root}` from a job on it), "
                "or run only on nodes that have it (`#SBATCH --constraint`/`--nodelist`), or point "
                f"{file.name} at an install every node has; then run again.",
        )]
    return [Finding(
        category=CONFIG,
        title=f"{file.name}:{number} runs {program}, which does not exist: nothing ran",
        evidence=[line, EvidenceLine(file=file.name, line=number, text=text)],
        cause=f"{common} {root} is there, but not {program}: the script names a program that is not installed at "
              "that path.",
        fix=f"Point {file.name}:{number} at the program where it is installed (`command -v {program.name}`), or "
            "install it there; then run again.",
    )]
