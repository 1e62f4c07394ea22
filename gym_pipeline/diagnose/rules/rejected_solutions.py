"""Step 7: a task whose test rejects the task's own solution (seed 004: the oracle must score 1).

An episode whose agent ran the task's solution/solve.sh command for command, each command exiting 0, and that still
scored 0 was graded by a test that fails the task's own answer: the test, or the expected value it derives, is wrong
(an ascending sort where the most frequent word was meant, a count by a case-insensitive grep, a constant worked out
by hand, a grep for one spelling of the fix), so every right answer to that task scores 0 and the model is not at
fault (unless the sandbox is not what the task was written for: an image built from older files). `gym-pipeline
tasks validate` (the oracle) fails the same way. Read after the readings of a particular test
fault, which say more.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.taskfolders import TaskFolderRun, task_folder_run, tests_of_scored_tasks
from gym_pipeline.diagnose.vocabulary import VERIFIER_RUNTIME

MAX_ATTEMPTS_READ = 50  # of one task
_IF = re.compile(r"^\s*(?:if|elif)\s")
_ASSIGNED = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)=")
_USED = re.compile(r"\$\{?(?P<name>[A-Za-z_]\w*)\}?")
# a check on the agent's source text rather than on what it does: `grep -qF 'range(1, n+1)' /app/sum_to.py`
_GREPS_SOURCE = re.compile(r"\bgrep\b[^|;&]*\.(?:py|js|ts|go|rs|c|cc|cpp|java|rb|sh)\b")


def _solution_commands(ev: Evidence, run: TaskFolderRun, task: str) -> list[str]:
    """The command lines of the task's solution/solve.sh (no shebang, comments or blank lines)."""
    solve = locate_named_file(run.task_path(task), ev.run_dir, folder=True) / "solution" / "solve.sh"
    try:
        lines = solve.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def _attempts_running(ev: Evidence, task: str, commands: list[str]) -> list[tuple[Path, float]]:
    """(attempt folder, reward) of the task's verified attempts whose agent ran every command of the solution, each
    exiting 0."""
    found = []
    for attempt in sorted((ev.run_dir / "rollouts_episodes" / task).glob("*/attempt_*"))[:MAX_ATTEMPTS_READ]:
        try:
            transcript = json.loads((attempt / "agent" / "transcript.json").read_text(encoding="utf-8"))
            reward = float((attempt / "verifier" / "reward.txt").read_text().strip())
        except (OSError, ValueError):
            continue
        ran = {str(step.get("command", "")).strip() for step in transcript.get("commands", [])
               if isinstance(step, dict) and step.get("exit_code") == 0}
        if all(command in ran for command in commands):
            found.append((attempt, reward))
    return found


def _decision_lines(lines: list[str]) -> list[tuple[int, str]]:
    """The test's first `if` line and the assignments of the variables it compares (what decides the reward)."""
    decision = next(((number, line.strip()) for number, line in enumerate(lines, 1) if _IF.match(line)), None)
    if decision is None:
        return []
    used = {match["name"] for match in _USED.finditer(decision[1])}
    assigned = [(number, line.strip()) for number, line in enumerate(lines[:decision[0] - 1], 1)
                if (match := _ASSIGNED.match(line)) and match["name"] in used]
    return [*assigned[:3], decision]


def rule_test_rejects_the_tasks_own_solution(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    for task, rewards, test, lines in tests_of_scored_tasks(ev, run):
        if rewards != {0.0} or not (commands := _solution_commands(ev, run, task)):
            continue
        attempts = _attempts_running(ev, task, commands)
        if not attempts or any(reward > 0 for _, reward in attempts):
            continue
        attempt = attempts[0][0]
        said = (attempt / "verifier" / "test-stdout.txt")
        said_lines = [line.strip() for line in said.read_text(errors="replace").splitlines() if line.strip()] \
            if said.is_file() else []
        decides = _decision_lines(lines)
        greps_source = any(_GREPS_SOURCE.search(line) for _, line in decides)
        solution = "; ".join(commands[:3])
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} fails the task's own solution: {len(attempts)} episode"
                  f"{'s' if len(attempts) > 1 else ''} ran solution/solve.sh command for command (each exiting 0) and "
                  "scored 0",
            evidence=[EvidenceLine(file=ev.rel(attempt / "agent" / "transcript.json"), text=commands[0]),
                      *([EvidenceLine(file=ev.rel(said), line=1, text=said_lines[0])] if said_lines else []),
                      *(EvidenceLine(file=ev.rel(test), line=number, text=line) for number, line in decides[-2:])],
            cause=f"{ev.rel(attempt)} ran the task's reference solution (`{solution}`), every command exiting 0, and "
                  f"the test still wrote 0"
                  + (f" (it printed `{'; '.join(said_lines[:2])}`)" if said_lines else "")
                  + f". A test that fails the task's own answer grades every right answer 0: the test of {task} (or "
                  "the expected value it works out) is wrong, not the model; or the sandbox the episode ran in is "
                  "not what the solution and the test were written for (an image built from older files, a data "
                  "file changed since)."
                  + (" It checks one spelling of the source (a `grep` of the file), not what the program does."
                     if greps_source else ""),
            fix=f"Fix {run.task_path(task)}/tests/test.sh so that its expected values are what the task's own "
                "solution gives"
                + (f" (with the solution it printed `{'; '.join(said_lines[:2])}`)" if said_lines else "")
                + ": "
                + "; ".join(f"line {number} `{line}`" for number, line in decides)
                + f" decide{'s' if len(decides) == 1 else ''} the reward, and the solution's own `{solution}` must "
                "satisfy "
                + ("it" if len(decides) == 1 else "them")
                + (" (test the program's behaviour, its output, instead of grepping its source)" if greps_source
                   else "")
                + f". Check the task with its oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must "
                "score 1; if it passes there, compare the image and data the run used with the task folder's), then "
                f"{run.rerun()}.",
        )]
    return []
