"""Step 5: inputs materialized from another file than the run's batch script names now.

Slurm keeps a copy of the batch script it was given at `sbatch` time, and a job started again (`scontrol requeue`,
or a requeue after a node failure) runs that stored copy: fixing the file in the run folder and requeueing the job
reruns the old script. The folder then holds results of the data the old script named (the manifest records it),
beside a script that names other data, and every command exits 0. Named when the manifest's source is a data file
of the folder and the script's `--input` (directly or through a plain assignment) names another one; a job log
saying it was requeued or restarted tells why.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_of_match
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, SHELL_VARIABLE, UserFile, assignment_of
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

# the data a materialization (ours or Gym's) reads; a preparation tool's own `--input` is not the run's
_INPUT_OPTION = re.compile(r"\b(?:materialize|gym\s+eval\s+run)\b.*?\s--input[= ](?P<word>\S+)")
_PLAIN_VALUE = re.compile(r"=[\"']?(?P<value>[^\s\"'$`;]+)[\"']?\s*(?:#.*)?$")
_RESTARTED = re.compile(r"\brequeued?\b|\bSLURM_RESTART_COUNT=[1-9]|\brestart(?:s|ed)?[ =:]+[1-9]|\bRestarts=[1-9]",
                        re.I)


def _named_inputs(file: UserFile) -> list[tuple[int, str, str]]:
    """(line number, line, data file name) of each materialization's `--input` of `file`, through a plain
    assignment if need be (a script may evaluate several splits, one after the other)."""
    found = []
    for number, line in enumerate(file.text.splitlines(), start=1):
        if line.lstrip().startswith("#") or not (option := _INPUT_OPTION.search(line)):
            continue
        word, at, text = option["word"].strip("\"'"), number, line
        if variable := SHELL_VARIABLE.fullmatch(word):
            assigned = assignment_of([file], variable["name"])
            value = _PLAIN_VALUE.search(assigned[2]) if assigned else None
            if assigned is None or value is None:
                continue
            at, text, word = assigned[1], assigned[2], value["value"]
        if word.endswith(".jsonl") and "$" not in word:
            found.append((at, text.strip(), word))
    return found


def _restart_line(ev: Evidence) -> EvidenceLine | None:
    for log, text in ev.log_heads:
        if match := _RESTARTED.search(text):
            return line_of_match(ev.rel(log), text, match)
    return None


def rule_inputs_of_another_file_than_the_script_names(ev: Evidence) -> list[Finding]:
    source = ev.manifest.source
    if not source or ev.run_dir is None:
        return []
    source_name = Path(source).name
    for file in ev.user_files:
        if file.suffix not in SCRIPT_SUFFIXES:
            continue
        named = _named_inputs(file)
        if not named or any(Path(word).name == source_name for _, _, word in named):
            continue  # the script names the data the inputs came from (among the splits it evaluates)
        number, line, word = named[0]
        script_folder = (ev.run_dir / file.name).parent
        if Path(word).name == source_name or not (script_folder / word).is_file() \
                or not (ev.run_dir / source_name).is_file():
            continue
        restarted = _restart_line(ev)
        evidence = [EvidenceLine(file=file.name, line=number, text=line),
                    EvidenceLine(file="manifest.json", line=None, text=f"materialized_inputs.source.path: {source}")]
        why = ("the job was started again (`scontrol requeue`, or a requeue after a failure), and a requeued job runs "
               "the batch script Slurm stored when it was submitted, not the file as it is now"
               if restarted else
               f"{file.name} was changed after the run (or the run was made by another copy of it), so its results are "
               "not those of the script beside them")
        if restarted:
            evidence.append(restarted)
        return [Finding(
            category=CACHE_RESUME,
            title=f"The run's inputs were materialized from {source_name}, but {file.name}:{number} names {word}: "
                  "the results are of the script as it was, not as it is",
            evidence=evidence,
            cause=f"The manifest records {source_name} as the source of the materialized inputs, while {file.name} "
                  f"now gives {word}: {why}. Every rollout and the profile are of {source_name}, and every command "
                  "exited 0.",
            fix=f"Submit the fixed script as a new job (`sbatch {Path(file.name).name}`; Slurm runs the copy it stored "
                "at submission, so neither `scontrol requeue` nor an edit while the job is still queued reaches it: "
                "`scancel` a queued job and submit it again) or run it again, so that the inputs are materialized "
                f"from {word}; check with "
                "`gym-pipeline check-stale` or the manifest's materialized_inputs.source before comparing results.",
        )]
    return []
