"""Step 2: a script picking "the best checkpoint" with the wrong end of its metric: `max` of a loss.

A serving script that picks the checkpoint to evaluate from the trainer's metrics (`metrics.jsonl`: step, val_loss)
with `max(rows, key=lambda row: row["val_loss"])` picks the step whose loss is highest: the worst one. Nothing
fails; the eval measures another checkpoint than the one meant. Named when the metrics the run folder holds put
another step lowest.

The same choice made in a shell: `tail -n +2 val_summary.csv | sort -t, -k2 -r | head -1` sorts the accuracy column
as text, in which `9.8` comes after `57.5`: the step picked is not the best. Named when the table the line reads puts
another row first by number than as text.
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


# `... val_summary.csv | sort -t, -k2 -r | head -1`: a table sorted without -n/-g, its first (or last) line taken
_TEXT_SORT_PICK = re.compile(r"(?P<table>[\w./-]+\.(?:csv|tsv|txt))\b[^\n]*?\|\s*sort\b(?P<options>[^|\n]*)\|\s*"
                             r"(?P<end>head|tail)\s+(?:-n\s*)?-?1\b")


def _column_order(options: str) -> tuple[str, int, bool] | None:
    """(separator, column number, reversed) of a sort that compares as text; None for a numeric sort."""
    flags = "".join(re.findall(r"(?:^|\s)-([a-zA-Z]+)", options))
    key = re.search(r"-k\s*(?P<column>\d+)(?P<kind>[a-zA-Z]*)", options)
    if re.search(r"[nghV]", flags + (key["kind"] if key else "")) or "--numeric" in options or "--general" in options:
        return None
    separator = re.search(r"-t\s*[\"']?(?P<sep>[^\s\"'])", options)
    return (separator["sep"] if separator else None), int(key["column"]) if key else 1, "r" in flags


def rule_best_checkpoint_by_a_text_sort(ev: Evidence) -> list[Finding]:
    if ev.run_dir is None or not ev.run_dir.is_dir():
        return []
    for file, number, line, match in lines_matching(ev.user_files, _TEXT_SORT_PICK):
        order, table = _column_order(match["options"]), ev.run_dir / match["table"]
        if order is None or not table.is_file():
            continue
        separator, column, reverse = order
        rows = [fields for text in table.read_text(errors="replace").splitlines()
                if len(fields := text.split(separator)) >= column]
        numbered = [(float(fields[column - 1]), fields) for fields in rows
                    if re.fullmatch(r"-?\d+(?:\.\d+)?", fields[column - 1].strip())]
        if len(numbered) < 2:
            continue
        last = match["end"] == "tail"
        by_text = sorted(numbered, key=lambda row: row[1][column - 1], reverse=reverse)
        by_number = sorted(numbered, key=lambda row: row[0], reverse=reverse)
        picked, meant = (by_text[-1], by_number[-1]) if last else (by_text[0], by_number[0])
        if picked[0] == meant[0]:
            continue
        name = table.name
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{number} picks {picked[1][0]} from {name} with a text sort of column {column}: "
                  f"`{picked[1][column - 1]}` sorts past `{meant[1][column - 1]}` as text, and {meant[1][0]} was meant",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      *_served_line_of(ev, picked[1][0])],
            cause=f"`sort{match['options'].rstrip()}` compares column {column} of {name} as text, character by "
                  f"character: `{picked[1][column - 1]}` comes {'after' if reverse != last else 'before'} "
                  f"`{meant[1][column - 1]}`, so the line picked is {picked[1][0]}'s, not the checkpoint with the "
                  f"{'highest' if reverse != last else 'lowest'} value ({meant[1][0]}). The server was started on it "
                  "and the eval measured it, with no error.",
            fix=f"In {file.name}:{number}, sort the numbers as numbers, `sort -n` (`sort{match['options'].rstrip()}n`, "
                f"or `-k{column},{column}g`), so the checkpoint picked is {meant[1][0]}; then serve it and collect "
                "again on a clean output path.",
        )]
    return []


def _served_line_of(ev: Evidence, checkpoint: str) -> list[EvidenceLine]:
    """The log line naming the checkpoint a script picked (`step_0100`)."""
    step = re.search(r"(\d+)$", checkpoint)
    return _served_line(ev, int(step[1])) if step else []


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
