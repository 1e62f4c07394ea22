"""Step 7: a task's test that compares the agent's file with an expected file saved without its final newline.

`diff` and `cmp` compare bytes: an answer written with `echo` (or any editor) ends with a newline, and an expected
file saved without one (an editor set not to add it, `printf` without `\\n`, a copy from a spreadsheet cell) never
equals it. diff says so in the episode's output (`\\ No newline at end of file`) and the test fails every right
answer: the task scores 0 whatever the agent did, and the verifier is at fault.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.taskfolders import episode_output_line, task_folder_run, tests_of_scored_tasks
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

_NO_NEWLINE = "\\ No newline at end of file"
_COMPARES_WITH = re.compile(r"\b(?:diff|cmp)\b[^#\n]*?(?P<path>/tests/[\w./-]+|\$\(dirname[^)]*\)/[\w./-]+)")


def rule_expected_file_without_final_newline(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    for task, rewards, test, lines in tests_of_scored_tasks(ev, run):
        if any(rewards):
            continue
        compare = next(((number, line.strip(), match["path"]) for number, line in enumerate(lines, 1)
                        if not line.lstrip().startswith("#") and (match := _COMPARES_WITH.search(line))), None)
        if compare is None or (said := episode_output_line(ev, task, lambda text: text.strip() == _NO_NEWLINE)) is None:
            continue
        number, line, path = compare
        name = path.rsplit("/", 1)[-1]
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} compares the answer with {name} (line {number}), saved without a final "
                  f"newline: every episode of {task} scored 0",
            evidence=[EvidenceLine(file=ev.rel(test), line=number, text=line), said],
            cause=f"tests/test.sh line {number} (`{line}`) compares bytes, and tests/{name} does not end with a "
                  f"newline while the agent's file does (as `echo` writes it): diff reports `{_NO_NEWLINE}` and the "
                  f"test fails a right answer, so no episode of {task} could score.",
            fix=f"Add the final newline to {run.task_path(task)}/tests/{name} (`echo >> tests/{name}`, or save it "
                "with one), or compare the text without the trailing newline (`[ \"$(cat /app/answer)\" = \"$(cat "
                f"/tests/{name})\" ]`, which drops it on both sides) instead of `diff`; check it with the oracle "
                f"(`gym-pipeline tasks validate {run.task_path(task)}`, which must score 1), then {run.rerun()}.",
        )]
    return []
