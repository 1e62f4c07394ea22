"""Step 1: a value with a comma passed in Slurm's `--export` list, which Slurm splits at every comma.

`sbatch --export=ALL,DATASETS=general.jsonl,held_back.jsonl eval.sbatch` gives the job DATASETS=general.jsonl: the
list is split at each comma, and `held_back.jsonl` is read as the name of another variable to export (there is none).
The job runs on the first value only and exits 0. Named from the line, when a piece after a `NAME=value` is no
variable's name (a file name, a number).
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import EXPORT_OPTION, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_VARIABLE = re.compile(r"[A-Za-z_]\w*")


def rule_export_value_split_at_its_comma(ev: Evidence) -> list[Finding]:
    for file, number, line, match in lines_matching(ev.user_files, EXPORT_OPTION):
        pieces = match["list"].split(",")
        for index, piece in enumerate(pieces[1:], 1):
            if "=" in piece or _VARIABLE.fullmatch(piece) or piece.upper() in ("ALL", "NONE", "NIL"):
                continue
            owner = next((earlier for earlier in reversed(pieces[:index]) if "=" in earlier), None)
            if owner is None:
                continue
            name, value = owner.split("=", 1)
            meant = ",".join([value, *pieces[pieces.index(owner) + 1:index + 1]])
            return [Finding(
                category=CONFIG,
                title=f"{file.name}:{number} passes `{name}={meant}` in `--export`, which Slurm splits at every "
                      f"comma: the job got {name}={value}, and `{piece}` was taken for a variable's name",
                evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
                cause=f"Slurm reads `--export` as a comma-separated list of variables (`NAME=value` or a name to "
                      f"pass on), so a value cannot hold a comma: {name} ended at the first one, and the rest of the "
                      "list the job was meant to see never reached it. Nothing fails: the job runs on what it got.",
                fix=f"Pass {name} some other way: `export {name}={meant}` in the submitting shell with "
                    f"`--export=ALL`, or join the values with another separator (`:` or a space) and split on it in "
                    f"the job script; then submit again for the values left out.",
            )]
    return []
