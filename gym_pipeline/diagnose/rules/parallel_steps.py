"""Step 1: job steps a batch script starts at once, in a job that has room for one at a time.

`for i in 0 1 2 3; do srun --ntasks=1 ... & done; wait` in a job of `--ntasks=1`: each step takes the whole
allocation, so srun holds the others back ("step creation temporarily disabled, retrying (Requested nodes are
busy)") and the shards run one after the other. A `--time` sized for the parallel run then ends the job with shards
left (`Unable to create step ... already completing`). Nothing is wrong with Slurm: the job asks for fewer tasks
than the steps it starts together.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import FOR_ITEMS, SHELL_LOOP_END, UserFile, joined_commands
from gym_pipeline.diagnose.vocabulary import THROUGHPUT_RESOURCES

_NTASKS = re.compile(r"^#SBATCH\s+(?:--ntasks[= ]|-n\s*)(?P<tasks>\d+)")
_SRUN = re.compile(r"^\s*srun\b")


def _steps_at_once(file: UserFile) -> tuple[int, int, str] | None:
    """(how many steps, line, the srun line) a batch script starts in the background together: one `srun ... &` in
    a `for` loop over N items, or N such lines."""
    commands = list(joined_commands(file))
    background = [(at, text) for at, text in commands if _SRUN.match(text) and text.rstrip().endswith("&")]
    if not background:
        return None
    at, text = background[0]
    loop = next((FOR_ITEMS.match(line) for start, line in reversed(commands) if start < at and FOR_ITEMS.match(line)
                 and not any(SHELL_LOOP_END.match(between) for s, between in commands if start < s < at)), None)
    count = len(loop["items"].split()) if loop else len(background)
    return (count, at, text.strip()) if count > 1 else None


def rule_steps_queued_inside_the_job(ev: Evidence) -> list[Finding]:
    waiting = ev.hits("srun_step_waiting")
    if not waiting:
        return []
    for file in ev.user_files:
        if "#SBATCH" not in file.text or (steps := _steps_at_once(file)) is None:
            continue
        count, at, line = steps
        ntasks = next(((n, int(m["tasks"])) for n, text in enumerate(file.text.splitlines(), 1)
                       if (m := _NTASKS.match(text))), None)
        tasks = ntasks[1] if ntasks else 1
        if tasks >= count:
            continue
        asked = f"`--ntasks={tasks}`" + (f" ({file.name}:{ntasks[0]})" if ntasks else " (the default)")
        return [Finding(
            category=THROUGHPUT_RESOURCES,
            title=f"{file.name} starts {count} srun steps at once in a job of {asked}: they waited for each other "
                  "and ran one at a time",
            evidence=[waiting[0].evidence(), EvidenceLine(file=file.name, line=at, text=line[:300]),
                      *([EvidenceLine(file=file.name, line=ntasks[0], text=f"#SBATCH --ntasks={tasks}")] if ntasks
                        else [])],
            cause=f"Each step asks for a task of the job's allocation, and the job has {tasks}: srun held the other "
                  f"steps back until a running one ended ({waiting[0].file}:{waiting[0].line}: step creation "
                  f"disabled), so the shards ran one after the other, {count} times as long as planned. A time limit "
                  "sized for the parallel run then ends the job with shards left; what followed comes from that.",
            fix=f"In {file.name}, ask for one task per step (`#SBATCH --ntasks={count}`, and `srun --ntasks=1 "
                "--exact` for each step), or run the shards as a job array (`--array=0-" + str(count - 1) + "`); "
                "size `--time` for the run as it will go; then collect the shards that are missing.",
            explains=frozenset({"srun_step_waiting", "srun_job_completing"}),
        )]
    return []
