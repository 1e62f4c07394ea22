"""Step 7: a task's test that passes every episode, whatever the agent did: it reads `$?` after a print.

`grep -qx 'Hello' hello.txt`, then a debugging `echo "checked: ..."`, then `if [ $? -eq 0 ]`: `$?` is the echo's
status, always 0, so the test writes reward 1 for a wrong or missing file too. Read where every episode of the task
scored 1 (the line-level reading is shell_tests.status_of_a_print, shared with the run scripts' reading).
"""

from __future__ import annotations

from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.shell_tests import status_of_a_print, status_of_a_print_finding
from gym_pipeline.diagnose.rules.taskfolders import always_scored, task_folder_run, test_script
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME


def rule_test_passes_whatever_the_agent_did(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    findings = []
    for task in always_scored(run):
        if (script := test_script(run, ev.run_dir, task)) is None:
            continue
        test, lines = script
        if (found := status_of_a_print(lines)) is not None:
            findings.append(status_of_a_print_finding(
                ev.rel(test), lines, found, VERIFIER_RUNTIME,
                f"Every episode of {task} got reward 1, a wrong or missing answer too: the verifier, not the model.",
                f"check it with the oracle and a wrong answer (`gym-pipeline tasks validate {run.task_path(task)}`), "
                f"then {run.rerun()}."))
    return findings
