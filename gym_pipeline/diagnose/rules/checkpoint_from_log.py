"""Step 2: a serving script that takes the checkpoint to serve from the first line of the training log naming one.

`CKPT=$(grep -m1 'saved checkpoint' train.log | awk '{print $NF}')` (or `grep ... | head -n 1`): a training log names
its checkpoints in the order it saved them, so the first match is the oldest, not the one training ended on. The
server loads it, every command exits 0, and the eval measures an early checkpoint. Named when the log is in the run
folder and names a later checkpoint after the one taken.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, argument_given, lines_matching
from gym_pipeline.diagnose.vocabulary import MODEL_SERVING

# `grep -m1 'PATTERN' FILE` or `grep 'PATTERN' FILE | head -n 1`: the first line of FILE matching PATTERN
_FIRST_MATCH = re.compile(
    r"\bgrep\s+(?:-\w+\s+)*?(?:-m\s*1|--max-count[= ]1)\s+(?:-\w+\s+)*(?P<quote>['\"]?)(?P<pattern>[^'\"\s|]+(?:\s[^'\"|]+)?)"
    r"(?P=quote)\s+(?P<file>[^\s|)]+)"
    r"|\bgrep\s+(?:-\w+\s+)*(?P<quote2>['\"]?)(?P<pattern2>[^'\"\s|]+(?:\s[^'\"|]+)?)(?P=quote2)\s+(?P<file2>[^\s|)]+)"
    r"\s*\|\s*head\s+(?:-n\s*)?-?1\b")
_STEP = re.compile(r"(?:step|checkpoint|ckpt|iter)[_-]?0*(?P<step>\d+)\b", re.I)


def rule_checkpoint_taken_from_the_first_log_line(ev: Evidence) -> list[Finding]:
    for file, number, line, match in lines_matching(ev.user_files, _FIRST_MATCH, SCRIPT_SUFFIXES):
        pattern, written = match["pattern"] or match["pattern2"], match["file"] or match["file2"]
        named = written
        if not re.search(r"checkpoint|ckpt|saved|save", pattern + line, re.I):
            continue
        if (positional := re.fullmatch(r"[\"']?\$\{?(?P<index>[1-9])\}?[\"']?", named)) is not None:
            named = argument_given(ev.user_files, file.name, int(positional["index"])) or named  # `serve.sh train.log ...`
        log = locate_named_file(named, ev.run_dir) if ev.run_dir else None
        if log is None or not log.is_file():
            continue
        saved = [(index, text) for index, text in enumerate(log.read_text(encoding="utf-8", errors="replace")
                                                            .splitlines(), 1) if pattern in text]
        steps = [(index, text, int(step["step"])) for index, text in saved if (step := _STEP.search(text))]
        if len(steps) < 2:
            continue
        first, newest = steps[0], max(steps, key=lambda hit: hit[2])
        if first[2] >= newest[2]:
            continue
        shown = ev.rel(log)
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{number} serves the first checkpoint {PurePath(named).name} names (step {first[2]}), "
                  f"the oldest: training saved step {newest[2]} after it",
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()),
                      EvidenceLine(file=shown, line=first[0], text=first[1].strip()),
                      EvidenceLine(file=shown, line=newest[0], text=newest[1].strip())],
            cause=f"{file.name} takes the checkpoint from the first line of {PurePath(named).name} matching "
                  f"'{pattern}'; a training log names its checkpoints in the order it saved them, so that is the "
                  f"earliest (step {first[2]}), not the last one saved (step {newest[2]}). The server loaded it and "
                  "the eval measured it. Nothing fails.",
            fix=f"In {file.name}:{number}, take the last match, not the first (`{'grep -m1' if match['pattern'] else 'head -n 1'}`): "
                f"`grep '{pattern}' {written} | tail -n 1`, which here gives {_checkpoint_named(newest[1])} (or name the "
                "checkpoint to serve explicitly); check the step the server reports (`/v1/models`) before "
                "collecting; then serve it, collect again on a clean output path and profile.",
        )]
    return []


def _checkpoint_named(line: str) -> str:
    """The checkpoint a log line names: its word holding the step (`.../checkpoints/step_0200`), as a name."""
    word = next((word for word in reversed(line.split()) if _STEP.search(word)), line.strip())
    return PurePath(word.strip("'\",.")).name


# `grep -o '"step": [0-9]*' trainer_state.json | head -1`, `jq '.log_history[0].step' trainer_state.json`: the first
# "step" of a Hugging Face trainer's state, which is its log history's oldest entry, not the step it ended on
_FIRST_LOGGED_STEP = re.compile(r"trainer_state\.json\b[^\n#]*?(?:\|\s*head\s+(?:-n\s*)?-?1\b|\bgrep\s+-m\s*1\b)"
                                r"|\bgrep\s+(?:-\w+\s+)*?-m\s*1\b[^\n#]*trainer_state\.json"
                                r"|log_history\[0\][^\n#]*trainer_state\.json")
_GLOBAL_STEP = re.compile(r'"global_step"\s*:\s*(?P<step>\d+)')
_LOGGED_STEP = re.compile(r'"step"\s*:\s*(?P<step>\d+)')
_SERVED_STEP = re.compile(r"checkpoint step (?P<step>\d+)\b")


def rule_step_taken_from_the_trainer_states_first_entry(ev: Evidence) -> list[Finding]:
    """A serving script that takes the step to serve from the first `"step"` of trainer_state.json: the trainer's
    log history lists its logged steps oldest first, and `global_step` is the one it ended on."""
    for file, number, line, _ in lines_matching(ev.user_files, _FIRST_LOGGED_STEP, SCRIPT_SUFFIXES):
        if "global_step" in line or '"step"' not in line and ".step" not in line:
            continue
        state = locate_named_file(next(word for word in re.split(r"[\s|)'\"]+", line) if "trainer_state.json" in word),
                                  ev.run_dir) if ev.run_dir else None
        shown_state = []
        if state is not None and state.is_file():
            text = state.read_text(encoding="utf-8", errors="replace")
            final, first = _GLOBAL_STEP.search(text), _LOGGED_STEP.search(text)
            if final is None or first is None or int(first["step"]) >= int(final["step"]):
                continue  # one logged step, the last: the first is the one training ended on
            shown_state = [EvidenceLine(file=ev.rel(state), line=text.count("\n", 0, first.start()) + 1,
                                        text=first[0]),
                           EvidenceLine(file=ev.rel(state), line=text.count("\n", 0, final.start()) + 1,
                                        text=final[0])]
        served = ev.first_in_log_heads(_SERVED_STEP)
        return [Finding(
            category=MODEL_SERVING,
            title=f"{file.name}:{number} takes the step to serve from the first \"step\" of trainer_state.json, the "
                  "oldest entry of the trainer's log history, not the step training ended on"
                  + (f" (the server loaded step {served[1]['step']})" if served else ""),
            evidence=[EvidenceLine(file=file.name, line=number, text=line.strip()), *shown_state,
                      *([served[0]] if served else [])],
            cause="A Hugging Face trainer's trainer_state.json lists each logged step in `log_history`, oldest first, "
                  "and keeps the step it ended on in `global_step`. The first `\"step\"` the script finds is the "
                  "earliest logged one, so the server loaded an early checkpoint and the eval measured it; every "
                  "command exits 0.",
            fix=f"In {file.name} line {number}, read `global_step` instead of the first `\"step\"` (`head -1` takes the "
                "oldest): `jq .global_step trainer_state.json` (or `grep -o '\"global_step\": [0-9]*'`), or name "
                "the checkpoint to serve explicitly; check the step the server reports before collecting; then serve "
                "it, collect again on a clean output path and profile.",
        )]
    return []
