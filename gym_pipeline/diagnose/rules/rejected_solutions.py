"""Step 7: a task whose test rejects the task's own solution (seed 004: the oracle must score 1).

An episode whose agent ran the task's solution/solve.sh command for command, each command exiting 0, and that still
scored 0 was graded by a test that fails the task's own answer: the test, or the expected value it derives, is wrong
(an ascending sort where the most frequent word was meant, a count by a case-insensitive grep, a constant worked out
by hand, a grep for one spelling of the fix), so every right answer to that task scores 0 and the model is not at
fault (unless the sandbox is not what the task was written for: an image built from older files). `gym-pipeline
tasks validate` (the oracle) fails the same way. Read after the readings of a particular test fault, which say more.

A task whose task.toml names a prebuilt image (`[environment] docker_image`) runs in that image, not in one built
from its environment/ folder: its files are those of the image's build, and when the folder was refreshed since
(new data, a test expecting it), the solution's answer in the old sandbox fails the new test. That is the cache's
fault: the image was not rebuilt. So is a task image whose files come from another image built elsewhere (`FROM
team/eval-base:latest`, `COPY --from=team/export:weekly ...`): the task's own image is cached on its Dockerfile,
which did not change when the other image was rebuilt with fixed files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding
from gym_pipeline.diagnose.rules.taskfolders import TaskFolderRun, task_config, task_folder_run, tests_of_scored_tasks
from gym_pipeline.diagnose.user_scripts import SCRIPT_SUFFIXES, lines_matching
from gym_pipeline.diagnose.vocabulary import CACHE_RESUME, VERIFIER_RUNTIME

MAX_ATTEMPTS_READ = 50  # of one task
_IF = re.compile(r"^\s*(?:if|elif)\s")
_ASSIGNED = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)=")
_USED = re.compile(r"\$\{?(?P<name>[A-Za-z_]\w*)\}?")
# a check on the agent's source text rather than on what it does: `grep -qF 'range(1, n+1)' /app/sum_to.py`
_BUILDS_AN_IMAGE = re.compile(r"\bdocker\s+(?:image\s+)?(?:build|buildx\s+build)\b")
# a Dockerfile line taking files from another image: `FROM team/eval-base:latest`, `FROM ${BASE}`,
# `COPY --from=team/export:weekly /data/words.txt /app/`
_FROM_ANOTHER_IMAGE = re.compile(r"^\s*(?:FROM\s+(?P<base>\S*(?:/|\$)\S*)|COPY\s+--from=(?P<copied>\S*/\S*)\s)", re.I | re.M)
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
        said = attempts[0][0] / "verifier" / "test-stdout.txt"
        printed = [line.strip() for line in said.read_text(errors="replace").splitlines() if line.strip()] \
            if said.is_file() else []
        shown = [EvidenceLine(file=ev.rel(said), line=1, text=printed[0])] if printed else []
        ran = EvidenceLine(file=ev.rel(attempts[0][0] / "agent" / "transcript.json"), text=commands[0])
        image = config.environment.docker_image if (config := task_config(ev, run, task)) else None
        if image:
            return [_prebuilt_image_of_older_files(ev, run, task, image, len(attempts), [ran, *shown])]
        if (other := _files_from_another_image(ev, run, task)) is not None:
            return [_files_of_another_image(ev, run, task, other, len(attempts), [ran, *shown])]
        return [_test_rejecting_the_solution(ev, run, task, test, lines, attempts, commands, printed, [ran, *shown])]
    return []


def _test_rejecting_the_solution(ev: Evidence, run: TaskFolderRun, task: str, test: Path, lines: list[str],
                                 attempts: list[tuple[Path, float]], commands: list[str], printed: list[str],
                                 evidence: list[EvidenceLine]) -> Finding:
    decides = _decision_lines(lines)
    greps_source = any(_GREPS_SOURCE.search(line) for _, line in decides)
    solution = "; ".join(commands[:3])
    said = f" (with the solution it printed `{'; '.join(printed[:2])}`)" if printed else ""
    return Finding(
        category=VERIFIER_RUNTIME,
        title=f"The test of {task} fails the task's own solution: {len(attempts)} episode"
              f"{'s' if len(attempts) > 1 else ''} ran solution/solve.sh command for command (each exiting 0) and "
              "scored 0",
        evidence=[*evidence, *(EvidenceLine(file=ev.rel(test), line=number, text=line) for number, line in decides[-2:])],
        cause=f"{ev.rel(attempts[0][0])} ran the task's reference solution (`{solution}`), every command exiting 0, "
              f"and the test still wrote 0{said}. A test that fails the task's own answer grades every right answer "
              f"0: the test of {task} (or the expected value it works out) is wrong, not the model; or the sandbox "
              "the episode ran in is not what the solution and the test were written for (an image built from older "
              "files, a data file changed since)."
              + (" It checks one spelling of the source (a `grep` of the file), not what the program does."
                 if greps_source else ""),
        fix=f"Fix {run.task_path(task)}/tests/test.sh so that its expected values are what the task's own solution "
            f"gives{said}: "
            + "; ".join(f"line {number} `{line}`" for number, line in decides)
            + f" decide{'s' if len(decides) == 1 else ''} the reward, and the solution's own `{solution}` must "
            f"satisfy {'it' if len(decides) == 1 else 'them'}"
            + (" (test the program's behaviour, its output, instead of grepping its source)" if greps_source else "")
            + f". Check the task with its oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must "
            "score 1; if it passes there, compare the image and data the run used with the task folder's), then "
            f"{run.rerun()}.",
    )


def _prebuilt_image_of_older_files(ev: Evidence, run: TaskFolderRun, task: str, image: str, attempts: int,
                                   evidence: list[EvidenceLine]) -> Finding:
    built = next(((file, number, line.strip()) for file, number, line, _ in
                  lines_matching(ev.user_files, _BUILDS_AN_IMAGE, SCRIPT_SUFFIXES) if image.split(":")[0] in line),
                 None)
    return Finding(
        category=CACHE_RESUME,
        title=f"{task} runs in its prebuilt image {image} (task.toml's docker_image), where the task's own solution "
              f"fails its test: {attempts} episode{'s' if attempts > 1 else ''} ran solution/solve.sh and scored 0",
        evidence=[*evidence, *([EvidenceLine(file=built[0].name, line=built[1], text=built[2])] if built else [])],
        cause=f"task.toml's `[environment] docker_image = \"{image}\"` makes every episode of {task} run in that "
              "image, not in one built from its environment/ folder: the sandbox holds the files of the image's "
              "build. The task's reference solution, run there command for command, fails the task's test, so the "
              "test and the image disagree: the folder (its data, its test) changed after the image was built, and "
              "the image was never rebuilt. Every command exits 0.",
        fix=f"Rebuild {image} from {run.task_path(task)}/environment"
            + (f" (`{built[2]}` in {built[0].name})" if built else " (`docker build -t " + image + " ...`)")
            + " whenever the folder changes, or tag it by the folder's content (a digest of environment/) so a "
            "changed folder names a new image, or drop docker_image from task.toml so the image is built from the "
            f"folder; check the task with its oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must "
            f"score 1), then {run.rerun()}.",
    )


def _files_from_another_image(ev: Evidence, run: TaskFolderRun, task: str) -> tuple[Path, int, str, str] | None:
    """(Dockerfile, line, text, the image) of the task's Dockerfile line taking its files from an image built
    elsewhere (not the project's base image)."""
    dockerfile = locate_named_file(run.task_path(task), ev.run_dir, folder=True) / "environment" / "Dockerfile"
    try:
        text = dockerfile.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    for match in _FROM_ANOTHER_IMAGE.finditer(text):
        other = match["base"] or match["copied"]
        if not other.startswith("gym-pipeline/"):  # the project's own base images are built here
            number = text.count("\n", 0, match.start()) + 1
            return dockerfile, number, text.splitlines()[number - 1].strip(), other
    return None


def _files_of_another_image(ev: Evidence, run: TaskFolderRun, task: str, other: tuple[Path, int, str, str],
                            attempts: int, evidence: list[EvidenceLine]) -> Finding:
    dockerfile, number, line, image = other
    instruction = line.split()[0].upper() + (" --from" if "--from" in line else "")
    return Finding(
        category=CACHE_RESUME,
        title=f"{task}'s sandbox takes its files from another image ({dockerfile.name}:{number} `{line}`), where the "
              f"task's own solution fails its test: {attempts} episode{'s' if attempts > 1 else ''} ran "
              "solution/solve.sh and scored 0",
        evidence=[*evidence, EvidenceLine(file=ev.rel(dockerfile), line=number, text=line)],
        cause=f"The task's Dockerfile takes its files from {image} ({instruction}), an image built elsewhere. The "
              "task's own image is cached on its Dockerfile, which did not change when that image was rebuilt with "
              "fixed files: the sandbox keeps the files of the earlier build, and the task's reference solution, run "
              "there command for command, fails the test written for the new ones. Every command exits 0.",
        fix=f"Rebuild the task's image without the cache once {image} changes (`docker build --no-cache`, or "
            f"`--pull`), or pin {image} by digest (`@sha256:...`) in {dockerfile.name} line {number} (`{line}`) and "
            "change the pin with each rebuild, so a new image names a new task image; check the task with its "
            f"oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must score 1), then {run.rerun()}.",
    )
