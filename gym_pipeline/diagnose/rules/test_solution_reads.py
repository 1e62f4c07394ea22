"""Step 7: a task's test that reads what it expects from the task's solution/ folder.

Seed 004: the verifier's sandbox gets the task's tests/ (at /tests), and only the oracle agent, which runs the
reference solution, gets solution/ (at /solution). A test.sh that keeps its expected answer "in one place" and reads
it from there (`cat "$(dirname "$0")/../solution/expected.txt"`) passes under the oracle (`tasks validate`), and in
a model's episode reads nothing: right answers fail, and an episode that wrote nothing may pass an empty
expectation. The rewards say nothing of the model: the verifier is at fault.
"""

from __future__ import annotations

import re

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.taskfolders import task_folder_run, tests_of_scored_tasks
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

# a path into the solution folder: `../solution/x`, `/solution/x`, `$(dirname "$0")/../solution/x`
_SOLUTION_PATH = re.compile(r"(?:^|[\s\"'=(/])(?:\.\./|/)?solution/(?P<file>[\w./-]+)")


def rule_test_reads_the_solution_folder(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    for task, _, test, lines in tests_of_scored_tasks(ev, run):
        found = next(((number, line.strip(), match["file"]) for number, line in enumerate(lines, 1)
                      if not line.lstrip().startswith("#") and (match := _SOLUTION_PATH.search(line))), None)
        if found is None:
            continue
        number, line, file = found
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} reads solution/{file} (line {number}), which only the oracle's sandbox has: in "
                  "a model's episode it reads nothing",
            evidence=[EvidenceLine(file=ev.rel(test), line=number, text=line)],
            cause=f"tests/test.sh line {number} (`{line}`) takes what it checks against from the task's solution/ "
                  "folder. The verifier's sandbox gets tests/ only; solution/ is put there for the oracle agent "
                  "alone, so the test passes under `tasks validate` and, in a model's episode, compares with nothing: "
                  "right answers fail (and an empty answer may pass). The model is not at fault: the verifier is.",
            fix=f"Keep what the test needs under tests/: move solution/{file} to {run.task_path(task)}/tests/ (or "
                f"write the expected value into test.sh) and read it from /tests in line {number}; check it with the "
                f"oracle (`gym-pipeline tasks validate {run.task_path(task)}`), then {run.rerun()}.",
        )]
    return []
