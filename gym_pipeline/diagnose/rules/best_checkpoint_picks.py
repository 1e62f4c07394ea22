"""Step 2: a script picking "the best checkpoint" with the wrong end of its metric: `max` of a loss.

A serving script that picks the checkpoint to evaluate from the trainer's metrics (`metrics.jsonl`: step, val_loss)
with `max(rows, key=lambda row: row["val_loss"])` picks the step whose loss is highest: the worst one. Nothing
fails; the eval measures another checkpoint than the one meant. Named when the metrics the run folder holds put
another step lowest.
"""

from __future__ import annotations

import json
import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

# `max(rows, key=lambda row: row["val_loss"])`: the highest value of a loss taken as the best
_MAX_OF_LOSS = re.compile(r"\bmax\([^\n]*?\[\s*[\"'](?P<key>\w*loss\w*)[\"']\s*\]")
_MAX_METRICS_FILES = 20


def _metrics(ev: Evidence, key: str) -> list[tuple[int, float]]:
    """(step, value of `key`) of each row of a `*metrics*.jsonl` in the run folder that has both."""
    rows: list[tuple[int, float]] = []
    for path in sorted(ev.run_dir.rglob("*metrics*.jsonl"))[:_MAX_METRICS_FILES]:
        for line in path.read_text(errors="replace").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and isinstance(row.get("step"), int) and isinstance(row.get(key), int | float):
                rows.append((row["step"], float(row[key])))
        if rows:
            return rows
    return rows


def _served_line(ev: Evidence, step: int) -> list[EvidenceLine]:
    """The log line saying step `step` was picked or loaded (`step_0100`, `checkpoint step 100`)."""
    said = re.compile(rf"\bstep_0*{step}\b|\bcheckpoint step {step}\b")
    return [found[0]] if (found := ev.first_in_log_heads(said)) else []


def rule_best_checkpoint_by_the_highest_loss(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, match in lines_matching(ev.user_files, _MAX_OF_LOSS, {".py"}):
        key = match["key"]
        steps = _metrics(ev, key)
        if len(steps) < 2:
            continue
        lowest, highest = min(steps, key=lambda s: s[1]), max(steps, key=lambda s: s[1])
        if lowest[0] == highest[0]:
            continue
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{number} picks the checkpoint with the highest {key}, the worst: step {highest[0]} "
                  f"({key} {highest[1]:g}) was served, where step {lowest[0]} has the lowest ({lowest[1]:g})",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      *_served_line(ev, highest[0])],
            cause=f"A loss is best where it is lowest, and `max(..., key=...{key}...)` takes the highest: the script "
                  f"chose step {highest[0]} and served it, so the eval measured the worst checkpoint of the run, "
                  "not the one meant, without an error.",
            fix=f"In {file.name}:{number}, pick with `min` (`min(rows, key=lambda row: row[\"{key}\"])`) and print "
                f"the step it picks (here step_{lowest[0]:04d}); then serve that checkpoint and collect again on a "
                "clean output path.",
        )]
    return []
