"""Step 5: inputs materialized from a copy of the data made before the data was fixed.

A submit script that stages the data for a queued job (`cp tasks.jsonl staged/$(date ...)/`, so a running job never
sees the shared file change) freezes it at submission: a fix to the labels made while the job waits in the queue
never reaches it, and the run's results are of the old rows beside a data file that now reads right. Every command
exits 0. Named when the manifest's source is a file of the run folder with the name of another file there whose rows
differ from it, and a script of the folder copies that file.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME

MAX_BYTES = 64 << 20  # data files compared line by line
_COPIES = re.compile(r"(?:^|[;&|]\s*)(?:cp|rsync|install)\s[^\n#;&|]*")


def _lines(path: Path) -> list[bytes] | None:
    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        return path.read_bytes().splitlines()
    except OSError:
        return None


def rule_inputs_from_a_copy_staged_before_a_fix(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.manifest.source:
        return []
    staged = locate_named_file(ev.manifest.source, ev.run_dir)
    if not staged.is_file() or not staged.resolve().is_relative_to(ev.run_dir.resolve()):
        return []
    original = next((path for path in sorted(ev.run_dir.rglob(staged.name))
                     if path.resolve() != staged.resolve() and len(path.relative_to(ev.run_dir).parts)
                     < len(staged.resolve().relative_to(ev.run_dir.resolve()).parts)), None)
    copy = next(((file, number, line.strip()) for file in ev.user_files
                 for number, line in enumerate(file.text.splitlines(), start=1)
                 if any(staged.name in match.group(0) for match in _COPIES.finditer(line))), None)
    if original is None or copy is None:
        return []
    old, new = _lines(staged), _lines(original)
    if old is None or new is None or old == new:
        return []
    differing = [number for number, (a, b) in enumerate(zip(old, new, strict=False), start=1) if a != b]
    first = differing[0] if differing else min(len(old), len(new)) + 1
    changed = f"{len(differing)} of its {len(new)} rows differ" if differing else \
        f"it has {len(new)} rows, the copy {len(old)}"
    file, number, line = copy
    staged_name, original_name = ev.rel(staged), ev.rel(original)
    return [Finding(
        category=CACHE_RESUME,
        title=f"The inputs were materialized from {staged_name}, a copy {file.name}:{number} staged, and "
              f"{original_name} has changed since ({changed}): the run is of the old rows",
        evidence=[EvidenceLine(file=file.name, line=number, text=line),
                  EvidenceLine(file="manifest.json", line=None, text=f"materialized_inputs.source.path: {staged_name}"),
                  EvidenceLine(file=original_name, line=first, text=f"differs from {staged_name}:{first}")],
        cause=f"{file.name} copies the data into a staging folder when it submits ({line[:80]}), so the job reads the "
              f"data as it was then; {original_name} was changed afterwards (a fix made while the job waited), and the "
              "job never saw it. Every rollout and the profile are of the staged rows, and every command exited 0.",
        fix=f"Stage the fixed data and submit again (run {file.name} anew, so that it copies {original_name} as it is "
            f"now into staged/), or point the job at {original_name}; check with `gym-pipeline check-stale --inputs "
            f"<materialized inputs> --source {original_name} --num-repeats <n>` (exit 1: stale).",
    )]
