"""Step 2: an sbatch option written after the batch script's name (`sbatch eval.sbatch --array=0-3`). sbatch reads
its own options only before the script: what follows it is the script's arguments, so the option never reaches Slurm
(one plain job instead of an array, the default time limit, no dependency) and sbatch says nothing."""

from __future__ import annotations

import re
import shlex

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import CONFIG

_SBATCH_CALL = re.compile(r"\bsbatch\s+(?P<arguments>[^\n|;&)`#]+)")
# sbatch's options a submit line most often carries (long form; `--name=value` or `--name value`)
_SBATCH_OPTIONS = frozenset({
    "array", "time", "dependency", "job-name", "partition", "nodes", "ntasks", "ntasks-per-node", "cpus-per-task",
    "mem", "mem-per-cpu", "gres", "gpus", "output", "error", "export", "qos", "account", "constraint", "exclusive",
    "time-min", "deadline", "begin", "nodelist", "exclude", "chdir", "wait", "parsable", "reservation",
})
_BATCH_SCRIPT = re.compile(r"[\w./${}-]+\.(?:sbatch|sh|slurm|bash)$")


def rule_sbatch_option_after_the_script(ev: Evidence) -> list[Finding]:
    for file, number, line, match in lines_matching(ev.user_files, _SBATCH_CALL, SCRIPT_SUFFIXES):
        try:
            words = shlex.split(match["arguments"])
        except ValueError:
            continue
        script = next((index for index, word in enumerate(words)
                       if not word.startswith("-") and _BATCH_SCRIPT.search(word)), None)
        if script is None:
            continue
        late = next((word for word in words[script + 1:]
                     if word.startswith("--") and word[2:].split("=")[0] in _SBATCH_OPTIONS), None)
        if late is None:
            continue
        script_name = words[script]
        fixed = shlex.join([*words[:script], late, *(word for word in words[script:] if word != late)])
        effect = ("one plain job ran instead of an array, on the first shard only" if late.startswith("--array")
                  else "Slurm's default applied instead")
        return [Finding(
            category=CONFIG,
            title=f"{file.name}:{number} gives `{late}` after the batch script {script_name}: sbatch passed it to the "
                  "script as an argument, and Slurm never saw it",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip())],
            cause=f"sbatch reads its own options only before the script's name; everything after {script_name} is "
                  f"the script's arguments (`$1`, `$@`). So `{late}` reached the script, not Slurm: {effect}, and "
                  "neither sbatch nor the job said so.",
            fix=f"Give sbatch its options before the script: `sbatch {fixed}` in {file.name}:{number} (or an "
                f"`#SBATCH {late}` line in {script_name}); then submit again.",
        )]
    return []
