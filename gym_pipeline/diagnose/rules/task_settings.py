"""Step 1 (task folders): what a task folder says that Harbor's format does not do.

- A `task.toml` key the loader does not know is ignored, with a warning (`key 'verifier.environment' is not a Harbor
  field: ignored`). When it is a near miss of a field that does something (`[verifier.env]`, the verifier's
  environment variables), what the author meant never happened: the test ran without its variables, and every
  command exits 0.
- An image whose ENTRYPOINT script (a template's `init.sh`) does its own work and ends without `exec "$@"`: the
  sandbox's keep-alive command is handed to the entrypoint as arguments and never runs, so the container exits as soon
  as it starts and every episode of that task fails before the agent runs.
- An image that ends with `USER nobody` (a service template's security baseline): the agent's and the verifier's
  commands run as a user who cannot write /app or /logs, so answers are lost and results cannot be exported.
All are the task folder's own fault (data): named with the task, the file and the line.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine
from gym_pipeline.diagnose.findings import Finding, plural
from gym_pipeline.diagnose.rules.taskfolders import entrypoint_running_nothing, image_user, task_folder_run
from gym_pipeline.diagnose.vocabulary import DATA_SCHEMA
from gym_pipeline.taskfolders.models import (
    AgentSettings,
    EnvironmentSettings,
    SolutionSettings,
    TaskConfig,
    VerifierSettings,
)

_FIELDS = {"verifier": VerifierSettings, "agent": AgentSettings, "environment": EnvironmentSettings,
           "solution": SolutionSettings}


def _meant(key: str) -> str | None:
    """The Harbor field an ignored key is a near miss of (`verifier.environment` -> `verifier.env`), or None."""
    section, _, name = key.rpartition(".")
    model = _FIELDS.get(section, TaskConfig if not section else None)
    if model is None:
        return None
    known = [field for field in model.model_fields if field != "metadata"]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5) \
        or [field for field in known if name.startswith(field) or field.startswith(name)]
    return f"{section + '.' if section else ''}{close[0]}" if close else None


def _ignored_keys(run_dir: Path, taskset: Path, tasks: list[str]) -> Iterator[tuple[str, Path, str, str]]:
    """(task, its task.toml, a key the loader ignores, the Harbor field it is a near miss of) of the run's tasks."""
    for task in tasks:
        toml = locate_named_file(taskset / task / "task.toml", run_dir)
        try:
            config = TaskConfig.model_validate(tomllib.loads(toml.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue  # a task that does not load is another reading's
        for key in config.unknown_keys():
            if (meant := _meant(key)) is not None:
                yield task, toml, key, meant


def rule_task_setting_ignored(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    tasks = sorted({str(row.get("task")) for row in run.summary.get("tasks", []) if isinstance(row, dict)})
    found = next(_ignored_keys(ev.run_dir, Path(run.taskset), tasks), None)
    if found is None:
        return []
    task, toml, key, meant = found
    table = "[" + key.rpartition(".")[0] + "]" if "." in key else key
    written = _line_of(toml, key) if toml.is_file() else None
    warned = ev.first_in_log_heads(re.compile(rf"key '{re.escape(key)}' is not a Harbor field"))
    return [Finding(
        category=DATA_SCHEMA,
        title=f"{task}'s task.toml writes `{key}`, which Harbor does not know (ignored): `{meant}` was meant",
        evidence=[*([EvidenceLine(file=ev.rel(toml), line=written[0], text=written[1])] if written else []),
                  *([warned[0]] if warned else [])],
        cause=f"The task loader ignores keys that are not Harbor fields (it warns when it materializes): what {table} "
              f"holds never reached the episode, as `{meant}` would have (for `verifier.env`, the test's environment "
              "variables: the test compared with empty values). Every command exits 0; the task's rewards measure the "
              "test without its settings.",
        fix=f"In {task}'s task.toml, write the table as `[{meant}]` (Harbor's name), check the task with "
            f"`gym-pipeline tasks validate {toml.parent}` (no warning left), then collect that task again and "
            "profile.",
    )]


def _line_of(toml: Path, key: str) -> tuple[int, str] | None:
    """(line, text) of the table or key `key` (dotted) in a task.toml."""
    section, _, name = key.rpartition(".")
    wanted = re.compile(rf"^\s*\[\s*{re.escape(key)}\s*\]" + (rf"|^\s*{re.escape(name)}\s*=" if section else ""))
    for number, line in enumerate(toml.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if wanted.search(line):
            return number, line.strip()
    return None


def rule_task_image_entrypoint_runs_nothing_it_is_given(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    for task in sorted({str(row.get("task_id")) for _, row in run.failures}):
        if (found := entrypoint_running_nothing(run, ev.run_dir, task)) is None:
            continue
        dockerfile, line, entry, script = found
        number, first = next((number, row) for number, row in run.failures if row.get("task_id") == task)
        attempts = sum(1 for _, row in run.failures if row.get("task_id") == task)
        command = entry.split(None, 1)[1].strip("[]\" ")
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{task}'s image starts with ENTRYPOINT `{command}`, which never runs the command it is given: its "
                  f"sandboxes stopped at once ({plural(attempts, 'failed attempt')})",
            evidence=[EvidenceLine(file=ev.rel(ev.run_dir / "rollouts_failures.jsonl"), line=number,
                                   text=f"task_id={first.get('task_id')!r} {first.get('_ng_failure_message')}"),
                      EvidenceLine(file=ev.rel(dockerfile), line=line, text=entry),
                      EvidenceLine(file=ev.rel(script), line=None, text="(no `exec \"$@\"`)")],
            cause="A sandbox is started with a keep-alive command, which Docker hands to the image's ENTRYPOINT as its "
                  f"arguments; {script.name} does its own work and ends without running them (`exec \"$@\"`), so "
                  "the container stopped at once and the episode failed before the agent ran. The task's environment "
                  "is at fault, not the verifier.",
            fix=f"End {script.name} with `exec \"$@\"` (run the command Docker passes), or drop the ENTRYPOINT from "
                f"{task}'s environment/Dockerfile (line {line}); then build the task's image again and collect it.",
        )]
    return []


def rule_task_image_runs_as_a_user_that_cannot_write(ev: Evidence) -> list[Finding]:
    """An image ending with `USER nobody` (a service template's security baseline): the sandbox's commands, the
    agent's and the verifier's, run as that user, who may write neither /app nor /logs: answers are not saved and
    the verifier's results cannot be exported, so every episode fails or scores 0."""
    run = task_folder_run(ev)
    if run is None:
        return []
    failed = [(number, row) for number, row in run.rows if row.get("failure_kind")] + list(run.failures)
    for task in sorted({str(row.get("task_id")) for _, row in failed}):
        if (found := image_user(run, ev.run_dir, task)) is None:
            continue
        user, dockerfile, line, text = found
        number, first = next((number, row) for number, row in failed if row.get("task_id") == task)
        reason = first.get("failure_reason") or first.get("_ng_failure_message") or first.get("failure_kind")
        return [Finding(
            category=DATA_SCHEMA,
            title=f"{task}'s image ends with `USER {user}`: the sandbox's commands run as {user}, who cannot write "
                  "/app or /logs, and its episodes failed",
            evidence=[EvidenceLine(file=ev.rel(dockerfile), line=line, text=text),
                      EvidenceLine(file=ev.rel(ev.run_dir / "rollouts.jsonl"), line=number,
                                   text=f"task_id={task!r} {str(reason)[:200]}")],
            cause=f"The task's environment/Dockerfile switches to `USER {user}` (a service template's security "
                  "baseline): the agent's commands and the verifier then run as that user, who owns neither /app nor "
                  "/logs, so answers cannot be written and the verifier's logs and reward cannot be exported. The "
                  "task's environment is at fault, not the model or the verifier.",
            fix=f"In {task}'s environment/Dockerfile (line {line}), drop the `USER {user}` line (task sandboxes run "
                f"as root), or give {user} the folders it must write (`RUN mkdir -p /logs/verifier && chown -R {user} "
                "/app /logs` before it); check with `gym-pipeline tasks validate`, then build the image again and "
                "collect the task.",
        )]
    return []
