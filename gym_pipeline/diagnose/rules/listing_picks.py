"""A file a user's script picks from a listing (`DATA=$(ls data/trivia_v*.jsonl | head -1)`), meaning the newest.

`ls` sorts names as text, ascending: the first name is the oldest version, and the last of unpadded numbers is not the
highest (`v9` sorts after `v10`). Nothing fails; the run reads another version than the one meant. When the candidates
are in the run folder, the pick is read again as the script made it and compared with the newest by version number.
What was picked decides the class: a checkpoint given to a model server is model serving, anything else (a dataset, a
settings file) is the run's configuration.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.checkpoint_choice import FIRST_OF_LS
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, MODEL_SERVING

# `NAME=$(ls [-d] GLOB | head -1)` or `| tail -1` (by name: not -t, not -r)
_PICKED_FROM_LS = re.compile(r"(?P<name>[A-Za-z_]\w*)=\$\(\s*ls\s+(?:-d\s+)?(?P<glob>[^\s|)\-][^\s|)]*)\s*\|\s*"
                             r"(?P<end>head|tail)\s+-(?:n\s*)?1\s*\)")
_SERVES = re.compile(r"serve-policy|vllm\s+serve|sglang|--checkpoint|--model[ =]")
MAX_CANDIDATES = 1000


def _version_key(path: Path) -> list[tuple[int, int | str]]:
    """`trivia_v10.jsonl` after `trivia_v9.jsonl`: numbers compared as numbers."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", path.name) if part]


def rule_older_version_picked_from_a_listing(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, match in lines_matching(ev.user_files, _PICKED_FROM_LS, SCRIPT_SUFFIXES):
        pattern = match["glob"].strip("\"'")
        if pattern.startswith("/") or "$" in pattern or FIRST_OF_LS.search(line):
            continue  # a checkpoint's `ls | head -1` is rule_oldest_checkpoint_served_as_newest's
        candidates = sorted(ev.run_dir.glob(pattern))[:MAX_CANDIDATES]
        if len(candidates) < 2:
            continue
        picked = candidates[0] if match["end"] == "head" else candidates[-1]
        newest = max(candidates, key=_version_key)
        if picked == newest:
            continue
        served = any(_SERVES.search(text) and re.search(rf"\${{?{match['name']}\b", text)
                     for text in file.text.splitlines())
        if picked.is_dir() and not served:  # run folders picked for a profile or report: profiled_run reads those
            continue
        return [Finding(
            category=MODEL_SERVING if served else CONFIG,
            title=f"{file.name}:{number} picks {picked.name} with `ls ... | {match['end']} -1`, not the newest "
                  f"{newest.name}",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"`ls` sorts names as text, ascending, so `ls {pattern} | {match['end']} -1` takes {picked.name} of "
                  f"{', '.join(path.name for path in candidates[:6])}: "
                  + ("the first name is the oldest version" if match["end"] == "head" else
                     "the last name by text is not the highest number when the numbers have no zero padding")
                  + f". The run used {picked.name} where {newest.name} was meant; nothing failed"
                  + (", and the model server served the older checkpoint." if served else "."),
            fix=f"In {file.name} line {number} (`{line.strip()}`), take the highest version: `ls {pattern} | sort -V | "
                f"tail -1` (or name the file the run is for); check it picks {newest.name}, then run again on a clean "
                "output path and profile.",
        )]
    return []
