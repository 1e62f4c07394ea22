"""Step 7: a task's test that compares with a text no answer can equal: a backslash kept inside double quotes.

In a script, bash keeps a backslash inside double quotes unless it comes before `$`, a backquote, `"`, `\\` or a
newline: `"Hello, Gym\\!"` is the text `Hello, Gym\\!`, since history expansion, which the backslash guards against
at a prompt, is off in scripts. A test comparing the agent's output with it fails whatever the answer. The reading
names such a comparison when every episode of the task scored 0 and the task's own instruction or solution has the
text without the backslash.
"""

from __future__ import annotations

import re
from pathlib import Path

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.taskfolders import never_scored, task_folder_run, test_script
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

_COMPARISON = re.compile(r"\s(?:==?|!=)\s")
_DOUBLE_QUOTED = re.compile(r"\"(?P<text>(?:[^\"\\]|\\.)*)\"")
_EXPANDED = re.compile(r"(?<!\\)[$`]")
_KEPT_BACKSLASH = re.compile(r"\\(?P<char>[^$`\"\\\n])")
_MEANT_IN = ("instruction.md", "solution/solve.sh")


def _line_holding(path: Path, text: str) -> tuple[int, str] | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return next(((number, line) for number, line in enumerate(lines, 1) if text in line), None)


def rule_test_expects_kept_backslashes(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    findings = []
    for task in never_scored(run):
        if (script := test_script(run, ev.run_dir, task)) is None:
            continue
        test, lines = script
        folder = test.parent.parent
        compared = ((number, line, match["text"]) for number, line in enumerate(lines, 1)
                    if not line.lstrip().startswith("#") and _COMPARISON.search(line)
                    for match in _DOUBLE_QUOTED.finditer(line)
                    if _KEPT_BACKSLASH.search(match["text"]) and not _EXPANDED.search(match["text"]))
        for number, line, expected in compared:
            meant = _KEPT_BACKSLASH.sub(r"\g<char>", expected)
            written = next(((name, found) for name in _MEANT_IN if (found := _line_holding(folder / name, meant))),
                           None)
            if written is None:
                continue
            name, (meant_line, meant_text) = written
            kept = ", ".join(sorted({f"`\\{m['char']}`" for m in _KEPT_BACKSLASH.finditer(expected)}))
            findings.append(Finding(
                category=VERIFIER_RUNTIME,
                title=f"The test of {task} compares with \"{expected}\", whose backslash a script keeps inside double "
                      "quotes; every episode of it scored 0",
                evidence=[EvidenceLine(file=ev.rel(test), line=number, text=line.strip()),
                          EvidenceLine(file=ev.rel(folder / name), line=meant_line, text=meant_text.strip())],
                cause=f"tests/test.sh line {number} expects \"{expected}\": inside double quotes a script keeps the "
                      f"backslash of {kept} (history expansion, which `\\!` guards against at a prompt, is off in "
                      f"scripts), so the text it compares with is `{expected}` while {name} has `{meant}`: no "
                      "answer can equal it. The model is not at fault: the verifier is.",
                fix=f"In {run.task_path(task)}/tests/test.sh line {number} (`{line.strip()}`), write the text without "
                    f"the backslash, in single quotes: '{meant}'; check it with the oracle (`gym-pipeline tasks "
                    f"validate {run.task_path(task)}`, which must score 1), then {run.rerun()}.",
            ))
            break
    return findings
