"""A file a user's script picks from a listing (`DATA=$(ls data/trivia_v*.jsonl | head -1)`), meaning the newest.

`ls` sorts names as text, ascending: the first name is the oldest version, and the last of unpadded numbers is not the
highest (`v9` sorts after `v10`). Nothing fails; the run reads another version than the one meant. When the candidates
are in the run folder, the pick is read again as the script made it and compared with the newest by version number.
What was picked decides the class: a checkpoint given to a model server is model serving, anything else (a dataset, a
settings file) is the run's configuration.

The last name of such a listing need not be a version at all: `ls -d ckpts/step_* | tail -1` meant as the newest step
takes `step_best` (the trainer's copy of an early step) or `step_0300.tmp` (a save still being written), which sort
after every `step_0200`. The candidates are rarely in the run folder, but the scripts print what they picked
(`serving /ckpts/step_best`): that name, read back from the logs, is the evidence.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.checkpoint_choice import FIRST_OF_LS
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, SHELL_VARIABLE, assignment_of, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG, MODEL_SERVING

# `NAME=$(ls [-d] GLOB | head -1)` or `| tail -1` (by name: not -t, not -r), with a `| sort` between or not
_PICKED_FROM_LS = re.compile(r"(?P<name>[A-Za-z_]\w*)=\$\(\s*ls\s+(?:-d\s+)?(?P<glob>[^\s|)\-][^\s|)]*)\s*\|\s*"
                             r"(?:sort(?:\s+-\w+)*\s*\|\s*)?(?P<end>head|tail)\s+-(?:n\s*)?1\s*\)")
_SORTED_BY_NUMBER = re.compile(r"\|\s*sort\s+(?:-\w+\s+)*-\w*[Vng]")
# a last name that means the newest anyway: a pointer the trainer keeps
_MEANS_NEWEST = re.compile(r"latest|last|newest|final|current", re.I)
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
        if _SORTED_BY_NUMBER.search(line):
            continue  # `sort -V | tail -1` takes the highest version
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


def _picked_name_in_logs(ev: Evidence, glob: str) -> tuple[EvidenceLine, str] | None:
    """The name a listing of `glob` (`/ckpts/step_*`, `$CKPTS/step_*`) gave, as a log printed it: (its line,
    `step_best`). The folder's own name anchors the path when the script gives it (itself or in a variable)."""
    folder, _, last = glob.rstrip("/").rpartition("/")
    prefix = last.split("*", 1)[0]
    if "*" not in last or not prefix:
        return None
    if (variable := SHELL_VARIABLE.fullmatch(folder)) and (assigned := assignment_of(ev.user_files, variable["name"])):
        folder = assigned[2].split("=", 1)[1].split("#", 1)[0].strip().strip("\"'").rstrip("/")
    parent = folder.rpartition("/")[2]
    anchor = re.escape(parent) if parent and "$" not in parent else r"[\w.-]+"
    found = ev.first_in_log_heads(re.compile(
        rf"(?<![\w.-]){anchor}/(?P<picked>{re.escape(prefix)}[^\s/'\"]+)"))
    return None if found is None else (found[0], found[1]["picked"])


def rule_non_version_picked_from_a_listing(ev: Evidence) -> list[Finding]:
    for file, number, line, match in lines_matching(ev.user_files, _PICKED_FROM_LS, SCRIPT_SUFFIXES):
        glob = match["glob"].strip("\"'")
        if match["end"] != "tail" or (shown := _picked_name_in_logs(ev, glob)) is None:
            continue
        said, picked = shown
        prefix = glob.rstrip("/").rpartition("/")[2].split("*", 1)[0]
        rest = picked[len(prefix):]
        if rest.isdigit() or _MEANS_NEWEST.search(rest):
            continue
        served = any(_SERVES.search(text) and re.search(rf"\${{?{match['name']}\b", text)
                     for text in file.text.splitlines())
        what = "checkpoint" if served else "file"
        # what failed on it: a server refusing the half-written save, the stages then given no model URL
        followed = [line_of_match(ev.rel(log), head, failed) for log, head in ev.log_heads
                    if (failed := re.search(rf"(?i)(?:error|missing|not found|no such)[^\n]*{re.escape(picked)}|"
                                            rf"{re.escape(picked)}[^\n]*(?:error|missing|not found|no such)|"
                                            r"argument --model-url: (?:expected one argument|must be)", head))]
        return [Finding(
            category=MODEL_SERVING if served else CONFIG,
            title=f"{file.name}:{number} takes the last name of `ls {glob}` as the newest {what}, and got {picked}, "
                  f"which is no {prefix}<number>",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), said, *[e for e in followed if e != said][:2]],
            cause=f"`ls` sorts names as text, so a name of the same folder that is not {prefix} followed by a number "
                  f"(a trainer's `{prefix}best` copy of an earlier {what}, a `.tmp` save still being written) sorts after "
                  f"every numbered one, and `tail -1` took {picked}: "
                  + ("the model server served it instead of the newest step (or failed on it half-written)."
                     if served else "the run read it instead of the newest version."),
            fix=f"In {file.name} line {number}, pick among numbered names only and by number: `ls -d "
                f"{glob.rpartition('/')[0] or '.'}/{prefix}[0-9]* | grep -E '/{prefix}[0-9]+$' | sort -V | tail -1` "
                f"(or read the trainer's own pointer to its latest {what}), which leaves out {picked} ("
                + ("a save still being written, in-progress" if picked.endswith((".tmp", ".partial", ".incomplete"))
                   else "no numbered step")
                + f"); check it names the newest {prefix}<number>, then run again.",
        )]
    return []
