"""Task-folder runs of our engine (`gym_pipeline/taskfolders`), read through their own files, as seed 004 says.

Such a run keeps `rollouts_run_summary.json` (every task and rollout with its status, failure_kind and verifier log
folder), `skipped.json` and, per failed attempt, a row of `rollouts_failures.jsonl` with its stage. The generic
rules read the same runs as Gym's and give Gym's commands (`gym eval run --resume`, which a task-folder collection
never does: it always starts afresh); here each finding names its tasks and failure kind and gives seed 004's fix
in this pipeline's words. `with_task_folder_rules` puts these rules in the rule list: each replaces, on a
task-folder run only, the generic rule that reads the same thing.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from difflib import get_close_matches
from functools import partial
from pathlib import Path
from typing import Any

from gym_pipeline.core.formats import FAILURES_FILE, MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE
from gym_pipeline.core.manifest import ROLLOUTS_STAGE, read_manifest
from gym_pipeline.core.materialize import MATERIALIZED_INPUTS_STAGE
from gym_pipeline.diagnose.artifacts import locate_named_file
from gym_pipeline.diagnose.evidence import Evidence
from gym_pipeline.diagnose.evidence_line import EvidenceLine, line_holding
from gym_pipeline.diagnose.findings import CAUSE, NOTE, Finding, Rule, plural
from gym_pipeline.diagnose.jsonl_rows import readable_rows
from gym_pipeline.diagnose.manifests import sweep_config_beside
from gym_pipeline.diagnose.origin import DOCKER_TLS, DOCKER_TLS_FIX
from gym_pipeline.diagnose.rules.data_rows import keys_given_twice
from gym_pipeline.diagnose.rules.tool_path import PATH_REPLACED
from gym_pipeline.diagnose.skip_reasons import kind_of_skips, missing_copy_source
from gym_pipeline.diagnose.taskset_source import is_taskset_record, taskset_staleness
from gym_pipeline.diagnose.user_scripts import environment_assignments, lines_matching
from gym_pipeline.diagnose.vocabulary import (
    CACHE_RESUME,
    CONFIG,
    DATA_SCHEMA,
    FAILURE_KINDS,
    INFRA,
    THROUGHPUT_RESOURCES,
    TIMEOUT_KINDS,
    VERIFIER_RUNTIME,
)
from gym_pipeline.taskfolders.loader import (
    DATASET_FILE,
    TaskLoadError,
    backup_copies,
    is_task_folder,
    load_dataset_settings,
    load_task,
)
from gym_pipeline.taskfolders.models import TaskConfig

RUN_SUMMARY = "rollouts_run_summary.json"
SKIPPED = "skipped.json"
TEST_STDOUT = "test-stdout.txt"
NO_SANDBOX = "Could not set up sandbox"
FOLDER_CHANGED = "changed since materialization"
TASK_DEADLINE = "harbor:task_deadline"
VERIFIER_TIMEOUT = "harbor:verifier_timeout"
INVALID_REWARD = "harbor:invalid_reward"
MISSING_REWARD = "harbor:missing_reward"
LISTED = 6  # tasks named in a title
CHANGED_TASK = re.compile(r"task (\S+): Task folder \S+ changed since materialization")  # taskfolders.materialize


@dataclass
class TaskFolderRun:
    """What a task-folder run of this pipeline wrote, read once per rule."""

    run_dir: Path
    summary: dict[str, Any]
    manifest: dict[str, Any]
    rows: list[tuple[int, dict[str, Any]]]  # (line, row) of rollouts.jsonl
    failures: list[tuple[int, dict[str, Any]]]  # (line, row) of rollouts_failures.jsonl

    @property
    def taskset(self) -> str:
        return str(self.summary.get("taskset", "<taskset>"))

    @property
    def partition(self) -> tuple[str, str] | None:
        record = self.manifest.get(ROLLOUTS_STAGE, {})
        checkpoint = record.get("checkpoint", {}).get("name")
        # the environment is the folder the stage wrote into (`<runs_dir>/<checkpoint>/<env>`), wherever the run
        # folder was copied or moved since
        written = record.get("output", {}).get("path")
        return (checkpoint, Path(written).parent.name if written else self.run_dir.name) if checkpoint else None

    def rerun(self) -> str:
        """How to run it again: a task-folder collection always starts afresh (no --resume)."""
        if self.partition is None:  # `tasks validate` output
            return f"run `gym-pipeline tasks validate {self.taskset}` again"
        checkpoint, env = self.partition
        return (f"run the partition again: `gym-pipeline backfill --checkpoint {checkpoint} --env {env}` (a "
                "task-folder collection always starts afresh; there is no --resume)")

    def task_path(self, task: str) -> str:
        for _, row in self.rows:
            if row.get("task_id") == task and row.get("task_path"):
                return str(row["task_path"])
        return f"{self.taskset}/{task}"


def _jsonl(path: Path) -> list[tuple[int, dict[str, Any]]]:
    return list(readable_rows(path))


def task_folder_run(ev: Evidence) -> TaskFolderRun | None:
    """The run when our task-folder engine wrote it (its summary has `agent` and `counts`; Gym's has neither)."""
    path = ev.run_dir / RUN_SUMMARY
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(summary, dict) or "agent" not in summary or "counts" not in summary:
        return None
    return TaskFolderRun(ev.run_dir, summary, read_manifest(ev.run_dir), _jsonl(ev.run_dir / ROLLOUTS_FILE),
                         _jsonl(ev.run_dir / FAILURES_FILE))


def _names(tasks: Iterable[str]) -> str:
    tasks = sorted(set(tasks))
    return ", ".join(tasks[:LISTED]) + (" ..." if len(tasks) > LISTED else "")


def _line(ev: Evidence, path: Path, number: int, row: dict[str, Any], *fields: str) -> EvidenceLine:
    text = " ".join(f"{name}={row.get(name)!r}" for name in ("task_id", *fields) if row.get(name) is not None)
    return EvidenceLine(file=ev.rel(path), line=number, text=text)


# ---------------------------------------------------------------------------------------------
# seed 004: A task does not load


def rule_tasks_not_loadable(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    skipped_path = ev.run_dir / SKIPPED
    if run is None or not run.summary.get("skipped") or not skipped_path.is_file():
        return []
    skipped: dict[str, str] = run.summary["skipped"]
    lines = skipped_path.read_text(encoding="utf-8", errors="replace").splitlines()
    evidence = [EvidenceLine(file=ev.rel(skipped_path), line=number, text=f"{task}: {skipped[task]}")
                for number, text in enumerate(lines, start=1)
                for task in skipped if text.lstrip().startswith(json.dumps(task) + ":")]
    stopped = not run.rows and not run.failures
    first = next(iter(skipped))
    kind = kind_of_skips(skipped.values())
    specific = missing_copy_source(skipped[first], locate_named_file(run.task_path(first), ev.run_dir, folder=True))
    # skipped as asked (skip_unloadable) and every other task ran: a draft left out on purpose looks the same
    complete = not stopped and ev.artifacts.rollouts.valid_rows and not ev.artifacts.missing_keys
    return [Finding(
        category=kind.category if kind else CONFIG,
        role=NOTE if complete else CAUSE,
        title=f"{plural(len(skipped), 'task')} could not load: {_names(skipped)} ({first}: {skipped[first]})",
        evidence=evidence,
        cause=f"The loader refused {_names(skipped)} or its image build failed; skipped.json maps each task to its "
              "reason. " + ("The environment does not set skip_unloadable, so the collection stopped before any "
                            "episode ran." if stopped else "The other tasks ran (skip_unloadable)."),
        fix=("Nothing, if they were left out on purpose (a draft); otherwise: " if complete else "")
            + (f"{specific} " if specific else f"{kind.fix} " if kind else "")
            + f"Read the reason (quoted above), fix the task folder ({run.task_path(first)}) and check it with "
            f"`gym-pipeline tasks validate {run.task_path(first)}`. To run the loadable tasks meanwhile, set "
            "`skip_unloadable: true` on the environment in sweep.yaml (Gym's --skip-unloadable), or move the task "
            f"folder out of the taskset (Gym's --exclude-tasks); then {run.rerun()}.",
        explains=frozenset({"tasks_not_loadable", "skip_unloadable_hint", "validate_skipped", "skipped_task"}),
    )]


# ---------------------------------------------------------------------------------------------
# seed 004: No task produced a result (no sandbox could be created)


def _failures_where(run: TaskFolderRun, test: Callable[[dict[str, Any]], bool]) -> list[tuple[int, dict[str, Any]]]:
    return [(number, row) for number, row in run.failures if test(row)]


def _no_sandbox(row: dict[str, Any]) -> bool:
    return row.get("_ng_failure_stage") == "seed" and str(row.get("_ng_failure_message", "")).startswith(NO_SANDBOX)


_PERMISSION_DENIED = re.compile(r"Permission denied|PermissionError|Errno 13\b")


def rule_no_sandbox(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None or not (failed := _failures_where(run, _no_sandbox)):
        return []
    number, first = failed[0]
    tasks = {row.get("task_id") for _, row in failed}
    episodes = {(row["_ng_task_index"], row["_ng_rollout_index"]) for _, row in failed}
    total = len(run.summary.get("tasks", []))
    none = not run.rows
    if (too_many := _CPUS_OVER_THE_NODE.search(str(first.get("_ng_failure_message")))) is not None:
        return [_sandbox_asks_more_cpus(ev, run, failed, too_many, episodes, total)]
    return [Finding(
        category=INFRA,
        title=(f"No sandbox could be created: {len(episodes)} of {total} episodes failed at seed "
               f"({_names(tasks)}); " + ("no task produced a result" if none else "the others ran")),
        evidence=[_line(ev, ev.run_dir / FAILURES_FILE, number, first, "_ng_failure_stage", "_ng_failure_class",
                        "_ng_failure_message")],
        cause=f"Every attempt of these episodes failed at stage seed ({first.get('_ng_failure_class')}) before a "
              f"result row existed, because no sandbox could be made: {first.get('_ng_failure_message')}",
        fix=f"Read the failures file ({ev.rel(ev.run_dir / FAILURES_FILE)}) or each task's failure.message in the "
            "run summary. " + _docker_host_set_by(ev)
            + _sandbox_fix(str(first.get("_ng_failure_message"))) + f" Then {run.rerun()}.",
        failed_keys=frozenset(episodes),
    )]


# Docker refusing a container more CPUs than the node has (`--cpus` from the task's [environment] cpus)
_CPUS_OVER_THE_NODE = re.compile(r"Range of CPUs is from [\d.]+ to (?P<most>[\d.]+), as there are only (?P<cpus>\d+) "
                                 r"CPUs available")


def _sandbox_asks_more_cpus(ev: Evidence, run: TaskFolderRun, failed: list[tuple[int, dict[str, Any]]],
                            too_many: re.Match[str], episodes: set[tuple[int, int]], total: int) -> Finding:
    number, first = failed[0]
    task = str(first.get("task_id"))
    config = task_config(ev, run, task)
    asked = f"cpus = {config.environment.cpus:g}" if config else "its cpus"
    return Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"{task}'s task.toml asks for {asked}, more than this node's {too_many['cpus']} CPUs: Docker refused its "
              f"sandbox, {len(episodes)} of {total} episodes never ran",
        evidence=[_line(ev, ev.run_dir / FAILURES_FILE, number, first, "_ng_failure_stage", "_ng_failure_message")],
        cause=f"The task's [environment] `{asked}` becomes the sandbox's `--cpus`, and Docker cannot give a container "
              f"more CPUs than the node has (`{too_many.group(0)}`): the task was sized on a bigger machine, and no "
              "episode of it could start here.",
        fix=f"In {run.task_path(task)}/task.toml, lower [environment] cpus to at most {too_many['most']} (Docker says "
            f"there are only {too_many['cpus']} CPUs available), or run the partition on nodes with that many CPUs; "
            f"then {run.rerun()}.",
        failed_keys=frozenset(episodes),
    )


def _docker_host_set_by(ev: Evidence) -> str:
    """A sentence naming the user's file that sets DOCKER_HOST: the engine the stages were pointed at."""
    found = environment_assignments(ev.user_files, "DOCKER_HOST")
    if not found:
        return ""
    file, number, line = found[0]
    return (f"{file.name}:{number} points DOCKER_HOST elsewhere (`{line}`): check that this engine runs on this "
            f"node (`docker -H <that address> info`), or take the line out of {file.name} so the default engine is "
            "used. ")


def _sandbox_fix(message: str) -> str:
    """How to get a Docker engine the stages can use, by what the sandbox's failure says."""
    if re.search(DOCKER_TLS, message, re.I):
        return DOCKER_TLS_FIX
    if _PERMISSION_DENIED.search(message):
        return ("Let this user use the Docker engine: add it to the docker group (`sudo usermod -aG docker $USER`, "
                "then log in again) or point DOCKER_HOST at an engine it may use; `docker info` must answer.")
    return ("Start the Docker engine (`bash scripts/dev-services.sh up docker`) or point DOCKER_HOST at one; `docker "
            "info` must answer.")


# ---------------------------------------------------------------------------------------------
# A backup copy of a task folder left in the taskset: Harbor runs it as a task of its own


def rule_backup_copies_run_as_tasks(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    ran = {str(entry.get("task")) for entry in run.summary.get("tasks", []) if isinstance(entry, dict)}
    copies = backup_copies(sorted(ran))
    if not copies:
        return []
    copy, original = copies[0]
    lines = [line for name, _ in copies[:2] for line in _summary_lines(ev, f'"task": "{name}"')[:1]]
    return [Finding(
        category=DATA_SCHEMA,
        title=f"The taskset holds a backup copy of a task, run as a task of its own: {copy} (of {original})"
              + (f" and {len(copies) - 1} more" if len(copies) > 1 else ""),
        evidence=lines,
        cause=f"{copy} is named like a copy of {original} kept while editing it; it is a task folder like any other "
              "(task.toml, instruction.md, tests/), so the sweep ran it too: the report counts that task twice under "
              "two names (the copy perhaps in its old, unedited form), and its mean reward and pass@k weigh it double.",
        fix=f"Move {run.taskset}/{copy} out of the taskset (keep backups elsewhere, or in version control), then "
            f"{run.rerun()}.",
    )]


SIBLING_TASKS_MIN = 2  # other task folders beside the one run: it is one task of a taskset


def rule_one_task_folder_run_as_the_taskset(ev: Evidence) -> list[Finding]:
    """The sweep's `tasks` names one task folder of a taskset (left from debugging that task): a folder holding
    task.toml is a taskset of one task, so the run evaluates that task alone, every command exiting 0."""
    run = task_folder_run(ev)
    if run is None or "taskset" not in run.summary:
        return []
    taskset = locate_named_file(run.taskset, ev.run_dir, folder=True)
    if not is_task_folder(taskset):
        return []
    siblings = sorted(child.name for child in taskset.parent.iterdir()
                      if child != taskset and child.is_dir() and is_task_folder(child))
    if len(siblings) < SIBLING_TASKS_MIN:
        return []
    parent = Path(run.taskset).parent
    setting = next((EvidenceLine(file=file.name, line=number, text=line.strip())
                    for file, number, line, _ in lines_matching(ev.user_files, re.compile(
                        rf"\btasks\b\W.*{re.escape(taskset.name)}\b"))), None)
    dataset_settings = (taskset.parent / DATASET_FILE).is_file()
    return [Finding(
        category=CONFIG,
        title=f"The run's taskset is one task folder, {taskset.name}, of a taskset of {len(siblings) + 1} tasks: "
              f"{_names(siblings)} were never evaluated",
        evidence=[*_summary_lines(ev, '"taskset"')[:1], *([setting] if setting else []),
                  EvidenceLine(file=ev.rel(taskset.parent) if taskset.parent.is_relative_to(ev.run_dir)
                               else str(parent), text=f"task folders: {_names([taskset.name, *siblings])}"
                               + (f"; {DATASET_FILE}" if dataset_settings else ""))],
        cause=f"A folder holding task.toml is a taskset of one task: with `tasks` naming {taskset.name} (as when "
              f"debugging that task) the sweep materialized, collected and profiled it alone, and every command "
              f"exited 0. The report's mean reward and pass@k are one task's"
              + (f", and the taskset's {DATASET_FILE} settings were not applied" if dataset_settings else "") + ".",
        fix=f"Point the environment's `tasks` at the taskset, {parent}"
            + (f" ({setting.where})" if setting else "") + f", then {run.rerun()}.",
    )]


# ---------------------------------------------------------------------------------------------
# seed 004: A task folder changed


def _summary_lines(ev: Evidence, words: str) -> list[EvidenceLine]:
    """The lines of the run summary holding `words` (the known problem of these words cites them too)."""
    lines = (ev.run_dir / RUN_SUMMARY).read_text(encoding="utf-8", errors="replace").splitlines()
    return [EvidenceLine(file=ev.rel(ev.run_dir / RUN_SUMMARY), line=number, text=text.strip())
            for number, text in enumerate(lines, start=1) if words in text][:4]


def rule_task_folder_changed(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    record = run.manifest.get(MATERIALIZED_INPUTS_STAGE, {}) if run else {}
    if run is None or not is_taskset_record(record):
        return []
    stale = taskset_staleness(record, ev.run_dir / MATERIALIZED_INPUTS_FILE)
    refused = _failures_where(run, lambda row: FOLDER_CHANGED in str(row.get("_ng_failure_message", "")))
    if stale is None and not refused:
        return []
    changed = {row.get("task_id") for _, row in refused} | set(CHANGED_TASK.findall(stale[0] if stale else ""))
    evidence = [_line(ev, ev.run_dir / FAILURES_FILE, number, row, "_ng_failure_stage", "_ng_failure_message")
                for number, row in refused[:2]]
    if stale:
        evidence.append(EvidenceLine(file=ev.rel(ev.run_dir / MATERIALIZED_INPUTS_FILE), text=stale[0]))
    evidence += _summary_lines(ev, FOLDER_CHANGED)
    episodes = {(row["_ng_task_index"], row["_ng_rollout_index"]) for _, row in refused}
    return [Finding(
        category=CACHE_RESUME,
        title=f"Task folder changed since materialization: {_names(map(str, changed))}"
              + (f" ({plural(len(episodes), 'episode')} failed at seed)" if episodes else ""),
        evidence=evidence,
        cause=f"A task folder was edited after its rows were written (a task's digest covers its folder and its "
              f"dataset.toml settings): {stale[0] if stale else 'the episodes say so'}. Its episodes fail at seed "
              "with `Task folder ... changed since materialization; re-materialize the taskset` and are not retried.",
        fix=f"Run the command again so the materialize stage writes new rows from the folders as they are now: "
            f"{run.rerun()}; `gym-pipeline status` lists the partitions the edit made stale. To keep the old task, "
            "restore its folder instead, and put changes in dataset.toml overrides rather than in the task.",
        explains=frozenset({"task_folder_changed"}),
        failed_keys=frozenset(episodes),
    )]


# ---------------------------------------------------------------------------------------------
# seed 004: Verifier or agent timeout; Reward missing or invalid


def _kind_rows(run: TaskFolderRun, kinds: Iterable[str]) -> dict[str, list[tuple[Path, int, dict[str, Any]]]]:
    """Rows and failed attempts of each failure kind, in file order."""
    wanted = set(kinds)
    found: dict[str, list[tuple[Path, int, dict[str, Any]]]] = defaultdict(list)
    for path, rows in ((run.run_dir / ROLLOUTS_FILE, run.rows), (run.run_dir / FAILURES_FILE, run.failures)):
        for number, row in rows:
            if row.get("failure_kind") in wanted:
                found[row["failure_kind"]].append((path, number, row))
    return found


def _treatment(kind: str) -> str:
    known = FAILURE_KINDS.get(kind)
    return known.treatment if known else "not scored"


def _last_printed_line(ev: Evidence, row: dict[str, Any]) -> EvidenceLine | None:
    """The last line test.sh printed: where a crashed verifier says why."""
    if not row.get("episode_log_dir"):
        return None
    # the folder the row names, or the same one in this run folder (a run folder moved since)
    path = locate_named_file(Path(row["episode_log_dir"]) / "verifier" / TEST_STDOUT, ev.run_dir)
    if not path.is_file():
        return None
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    last = next((n for n in range(len(lines), 0, -1) if lines[n - 1].strip()), None)
    return EvidenceLine(file=ev.rel(path), line=last, text=lines[last - 1]) if last else None


_UNBOUND = re.compile(r": [A-Za-z_]\w*: unbound variable$")


# a finding of one kind in one task, read again against that task's own files (or returned as it is)
TaskReading = Callable[[Evidence, TaskFolderRun, Finding, str, str], Finding]


def _by_kind_findings(ev: Evidence, run: TaskFolderRun, kinds: Iterable[str], category: str,
                      fix: Callable[[TaskFolderRun, str, list[str]], str],
                      reading: TaskReading | None = None) -> list[Finding]:
    findings = []
    for kind, hits in sorted(_kind_rows(run, kinds).items()):
        tasks = sorted({str(row.get("task_id")) for _, _, row in hits})
        path, number, first = hits[0]
        reason = first.get("failure_reason") or first.get("_ng_failure_message")
        evidence = [_line(ev, path, number, first, "failure_kind", "reward", "failure_reason", "_ng_failure_message")]
        if (printed := _last_printed_line(ev, first)) is not None:
            evidence.append(printed)
        if kind == TASK_DEADLINE:  # every attempt's line, which the known problem of its message cites too
            evidence += [_line(ev, p, n, row, "_ng_failure_stage", "_ng_failure_message") for p, n, row in hits[1:8]]
            evidence += _summary_lines(ev, "Episode exceeded the time budget")
        # test.sh stopped by `set -u` before it wrote the reward: the strict-mode reading names the variable
        stopped_unset = kind == MISSING_REWARD and printed is not None and _UNBOUND.search(printed.text) is not None
        in_failures = [row for p, _, row in hits if p.name == FAILURES_FILE]
        episodes = {(row["_ng_task_index"], row["_ng_rollout_index"]) for row in in_failures}
        finding = Finding(
            category=category,
            title=f"{kind} in {plural(len(tasks), 'task')} ({_names(tasks)}): {reason}",
            evidence=evidence,
            cause=f"{kind}: {FAILURE_KINDS[kind].meaning if kind in FAILURE_KINDS else kind}; "
                  f"{_treatment(kind)}. {plural(len(hits), 'row')} of task {_names(tasks)}"
                  + (f", {plural(len(in_failures), 'failed attempt')} in the sidecar" if in_failures else "") + ".",
            fix=fix(run, kind, tasks) + _ended_early(reason),
            explains=frozenset({"task_deadline"} if kind == TASK_DEADLINE else ()),
            failed_keys=frozenset(episodes),
            effect=stopped_unset,
        )
        findings.append(reading(ev, run, finding, kind, tasks[0]) if reading and len(tasks) == 1 else finding)
    return findings


DATASET_BUDGETS = "Raise the budgets in the dataset, not in the task: "  # seed 004's advice for a task's timeouts


def _time_budget_fix(run: TaskFolderRun, kind: str, tasks: list[str]) -> str:
    grace = (" The deadline also counts a grace period: `episode_grace_sec` of the environment in sweep.yaml "
             "(60 s by default)." if kind == TASK_DEADLINE else "")
    return (f"{DATASET_BUDGETS}in {run.taskset}/dataset.toml, "
            f"`[gym.tasks.\"{tasks[0]}\".verifier] timeout_sec = <seconds>` sets this task's verifier budget before "
            "the multiplier scales it, and `timeout_multiplier` in [gym.defaults] scales every agent and verifier "
            f"timeout_sec.{grace} Then {run.rerun()}.")


_TEST_EXIT = re.compile(r"test\.sh exited (?P<code>[1-9]\d*)")


def _ended_early(reason: str | None) -> str:
    """test.sh that ended with an error before writing its reward: most often a failing check under `set -e`."""
    if not reason or not (ended := _TEST_EXIT.search(reason)):
        return ""
    return (f" test.sh ended with exit {ended['code']} before writing a reward: under `set -e` (`set -euo pipefail`) "
            "the first check that fails (`grep -q`, `test`, `diff`) ends the script there. Write the reward on "
            "either outcome instead: `if grep -q ...; then echo 1; else echo 0; fi > /logs/verifier/reward.txt`, or "
            "let a check fail without ending the script (`|| true`).")


_APPENDS_REWARD = re.compile(r">>\s*\S*reward\.txt")


def test_script(run: TaskFolderRun, run_dir: Path, task: str) -> tuple[Path, list[str]] | None:
    """A task's tests/test.sh (found below the run folder if it moved) and its lines; None when it cannot be read."""
    test = locate_named_file(run.task_path(task), run_dir, folder=True) / "tests" / "test.sh"
    try:
        return test, test.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None


# Readings of a task's tests/test.sh (its name and lines) for a reward that is missing or invalid: each returns a
# sentence for the fix, or "".

def _appends_reward(task: str, lines: list[str]) -> str:
    """A test.sh that appends (`>>`) to reward.txt: one line per check, which is no longer one number."""
    appends = [n for n, line in enumerate(lines, 1) if _APPENDS_REWARD.search(line)]
    if not appends:
        return ""
    return (f" tests/test.sh of {task} appends to reward.txt with `>>` (line{'s' if len(appends) > 1 else ''} "
            f"{', '.join(map(str, appends))}): every check adds a line, and a file of several lines is not one "
            "number. Write the reward once, with `>`, after all checks (`echo 1 > /logs/verifier/reward.txt` only "
            "when every check passed).")


# `echo "$PASSED/$TOTAL" > .../reward.txt`: a write of something other than a literal number
_WRITES_REWARD = re.compile(r"^\s*(?:echo|printf)\s+(?![\"']?[\d.]+[\"']?\s*>)(?P<value>.+?)\s*>\s*\S*reward\.txt")
_FRACTION = re.compile(r"\$\{?(?P<part>\w+)\}?\s*/\s*\$\{?(?P<whole>\w+)\}?")


def _written_reward(task: str, lines: list[str]) -> str:
    """A test.sh line that writes reward.txt from something other than a number: a fraction `$PASSED/$TOTAL` is
    text, not the number it stands for."""
    written = next(((n, line.strip(), m) for n, line in enumerate(lines, 1) if (m := _WRITES_REWARD.match(line))), None)
    if written is None:
        return ""
    number, line, match = written
    fraction = _FRACTION.search(match["value"])
    compute = (f": compute the number instead, `awk \"BEGIN {{print ${fraction['part']}/${fraction['whole']}}}\" > "
               "/logs/verifier/reward.txt`" if fraction else ": write a number")
    return (f"tests/test.sh of {task} writes reward.txt at line {number} (`{line}`), text the reader cannot take as "
            f"a number{compute}.")


# `test ... && echo 1 || echo 0 > reward.txt`: the redirect belongs to the last command only
_CHAIN_REDIRECTING_ONE_BRANCH = re.compile(r"&&\s*(?:echo|printf)\s+(?P<first>[^|&>;]+?)\s*\|\|\s*(?:echo|printf)\s+"
                                           r"[^|&>;]+?>\s*\S*reward\.(?:txt|json)")


def _redirect_of_one_branch(task: str, lines: list[str]) -> str:
    """A test.sh line `check && echo 1 || echo 0 > reward.txt`: only the failure branch is redirected, so a passing
    check prints its reward and writes no file."""
    found = next(((n, line.strip()) for n, line in enumerate(lines, 1) if _CHAIN_REDIRECTING_ONE_BRANCH.search(line)),
                 None)
    if found is None:
        return ""
    number, line = found
    return (f"tests/test.sh of {task} line {number} (`{line}`) redirects only the `||` branch: in `a && b || c > "
            "file` the redirect belongs to c, so when the check passes `echo 1` prints to the log and no reward file "
            "is written. Group the branches: `{ check && echo 1 || echo 0; } > /logs/verifier/reward.txt`, or use "
            "`if ...; then echo 1; else echo 0; fi > /logs/verifier/reward.txt`.")


_BACKGROUNDED = re.compile(r"(?<![&|])&\s*(?:#.*)?$")  # a command (or group) sent to the background, not `&&`
_WAITS = re.compile(r"^\s*wait\b")


def _check_left_in_background(task: str, lines: list[str]) -> str:
    """A test.sh that sends the check writing its reward to the background (`( sleep 3; check ) &`) and never waits:
    test.sh exits at once, the verifier ends with it, and the reward comes too late or never."""
    if not any(_REWARD_WRITE.search(line) for line in lines):
        return ""
    found = next(((n, line.strip()) for n, line in enumerate(lines, 1) if _BACKGROUNDED.search(line)
                  and not any(_WAITS.match(after) for after in lines[n:])), None)
    if found is None:
        return ""
    number, line = found
    return (f"tests/test.sh of {task} line {number} (`{line}`) runs the check that writes the reward in the "
            "background (`&`), and nothing after it waits: test.sh exits at once, the verifier ends with it, and "
            "the reward file is not there when it is read. Run the check in the foreground (remove the `&`), or add "
            "`wait` at the end of test.sh.")


_EXITS = re.compile(r"(?:\|\||&&|;|then)\s*exit\b(?:\s+0)?\s*(?:;|$|fi\b)|^\s*exit(?:\s+0)?\s*$")


def _exits_before_the_reward(task: str, lines: list[str]) -> str:
    """A test.sh that can exit 0 on a line before the one writing the reward (a quick-mode guard `[ -n "$FULL_CHECK" ]
    || exit 0` kept from CI): where the condition holds, the verifier ends without a reward."""
    writes = next((n for n, line in enumerate(lines, 1) if _REWARD_WRITE.search(line)
                   and not line.lstrip().startswith("#")), None)
    if writes is None:
        return ""
    found = next(((n, line.strip()) for n, line in enumerate(lines[:writes - 1], 1) if _EXITS.search(line)
                  and not line.lstrip().startswith("#")), None)
    if found is None:
        return ""
    number, line = found
    variable = re.search(r"\$\{?([A-Za-z_]\w*)", line)
    when = (f" whenever {variable[1]} is not set as the guard wants (nothing sets it in the sandbox)" if variable else "")
    return (f"tests/test.sh of {task} line {number} (`{line}`) exits before line {writes} writes the reward{when}: the "
            "verifier ends without reward.txt, solved or not. Write the reward before any early exit (or drop the "
            "guard" + (f", or set {variable[1]} for the verifier" if variable else "") + ").")


_REDIRECT_TO_VARIABLE = re.compile(r">{1,2}\s*\"?\$\{?(?P<name>[A-Za-z_]\w*)\}?\"?")


def _redirect_to_an_unset_variable(task: str, lines: list[str]) -> str:
    """A test.sh writing its reward to `$NAME` that it never sets, beside a variable of a name close to it that holds
    the reward's path (`REWARD_FILE=...` and `> $REWARD_FLIE`): bash refuses the redirect, no reward is written."""
    text = "\n".join(lines)
    assigned = set(re.findall(r"^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=", text, re.M))
    for number, line in enumerate(lines, 1):
        for match in _REDIRECT_TO_VARIABLE.finditer(line):
            name = match["name"]
            meant = get_close_matches(name, sorted(assigned), n=1, cutoff=0.8)
            if name in assigned or not meant:
                continue
            return (f"tests/test.sh of {task} line {number} (`{line.strip()}`) writes the reward to ${name}, which "
                    f"test.sh never sets: it sets {meant[0]}. Bash refuses a redirect to an empty name ('ambiguous "
                    f"redirect'), so no reward file is written. Write `> \"${meant[0]}\"` (every line that names "
                    f"{name}); `set -u` at the top of test.sh would stop at such a name.")
    return ""


_INDENTED_HEREDOC = re.compile(r"<<-\s*[\"']?(?P<word>\w+)[\"']?")


def _heredoc_terminator_indented_with_spaces(task: str, lines: list[str]) -> str:
    """A test.sh whose indented here-document (`<<-EOF`, which strips leading tabs only) ends on a line indented with
    spaces: that line does not end it, bash reads to the end of the file and stops with a syntax error."""
    for number, line in enumerate(lines, 1):
        if not (opened := _INDENTED_HEREDOC.search(line)) or line.lstrip().startswith("#"):
            continue
        word = opened["word"]
        end = next(((n, text) for n, text in enumerate(lines[number:], number + 1)
                    if text.strip() == word and text.lstrip("\t").startswith(" ")), None)
        if end is None:
            continue
        return (f"tests/test.sh of {task} line {number} opens an indented here-document (`<<-{word}`), which strips "
                f"leading tabs only, and its terminator at line {end[0]} is indented with spaces: that line does not "
                f"end it, so bash reads to the end of the file ('here-document ... delimited by end-of-file', then a "
                f"syntax error) and test.sh never writes the reward. Indent `{word}` with a tab (an editor set to "
                "spaces re-indented it), or write it at the start of its line.")
    return ""


_READINGS_OF_KIND = {INVALID_REWARD: (_appends_reward, _written_reward),
                     MISSING_REWARD: (_appends_reward, _redirect_of_one_branch, _check_left_in_background,
                                      _exits_before_the_reward, _redirect_to_an_unset_variable,
                                      _heredoc_terminator_indented_with_spaces)}


def _reward_fix(run: TaskFolderRun, kind: str, tasks: list[str], *, run_dir: Path) -> str:
    script = test_script(run, run_dir, tasks[0])  # read once for every reading of it
    lines = script[1] if script else []
    appends = next((said for reading in _READINGS_OF_KIND.get(kind, (_appends_reward,))
                    if (said := reading(tasks[0], lines))), "")
    return (appends.lstrip() + " " if appends else "") + (
            f"Open the task's test-stdout.txt, which holds everything test.sh printed (the run summary's "
            f"verifier_log_dir), or read failure_reason for a masked row. To check the verifier without a model, run "
            f"`gym-pipeline tasks validate {run.task_path(tasks[0])}` (Gym's `gym dataset validate`); test.sh must "
            f"write a finite number to /logs/verifier/reward.txt or reward.json. Then {run.rerun()}.")


SHRUNK_MULTIPLIER = 0.5  # below this, the dataset cuts every task's own budgets: a setting, not a slow episode


def _timeout_multiplier(ev: Evidence, run: TaskFolderRun) -> tuple[float, Path] | None:
    """The taskset's `[gym.defaults] timeout_multiplier` as the loader reads it (dataset.toml, found below the run
    folder if it moved); None when there is no dataset.toml or it does not load."""
    taskset = locate_named_file(run.taskset, ev.run_dir, folder=True)
    if not (taskset / DATASET_FILE).is_file():
        return None
    try:
        return load_dataset_settings(taskset).gym.defaults.timeout_multiplier, taskset / DATASET_FILE
    except (OSError, TaskLoadError):
        return None


_SLEEP = re.compile(r"^\s*(?:sleep\s+(?P<shell>\d+(?:\.\d+)?)s?\b|.*\btime\.sleep\(\s*(?P<python>\d+(?:\.\d+)?)\s*\))",
                    re.M)


_REWARD_WRITE = re.compile(r"/logs/verifier/reward\.(?:txt|json)")


_VERIFIER_TABLE = re.compile(r"^\s*\[verifier\]\s*$")
_TIMEOUT_KEY = re.compile(r"^\s*timeout_sec\s*=")


def _with_the_tasks_own_limit(ev: Evidence, folder: Path, finding: Finding, budget: float) -> Finding:
    """The verifier timeout with the line of the task's own task.toml that sets the limit it ran past, when it does
    (a task that keeps the 600 s default has no line to name)."""
    task_toml = folder / "task.toml"
    lines = task_toml.read_text(encoding="utf-8", errors="replace").splitlines() if task_toml.is_file() else []
    table = next((at for at, text in enumerate(lines) if _VERIFIER_TABLE.match(text)), None)
    if table is None:
        return finding
    end = next((at for at in range(table + 1, len(lines)) if lines[at].lstrip().startswith("[")), len(lines))
    key = next((at for at in range(table + 1, end) if _TIMEOUT_KEY.match(lines[at])), None)
    if key is None:
        return finding
    where = f"{ev.rel(task_toml)}:{key + 1}"
    return finding.model_copy(update={
        "evidence": [*finding.evidence, EvidenceLine(file=ev.rel(task_toml), line=key + 1, text=lines[key].strip())],
        "fix": f"The task itself sets the limit test.sh ran past: `{lines[key].strip()}` under [verifier] in {where} "
               f"({budget:g} s as the run applied it). When the task's own checks now need longer (a check added on a "
               f"larger input), raise `timeout_sec` there, in task.toml. To give this run more time without "
               f"changing the task, raise the budgets in the dataset: {finding.fix.removeprefix(DATASET_BUDGETS)}",
    })


def _verifier_budget_reading(ev: Evidence, run: TaskFolderRun, finding: Finding, kind: str, task_id: str) -> Finding:
    """A verifier timeout the task's own files explain: test.sh sleeping past its budget (a debug pause left in),
    or a dataset.toml override meant for the task under a misspelt name (so the task kept its own budget)."""
    if kind != VERIFIER_TIMEOUT:
        return finding
    folder = locate_named_file(run.task_path(task_id), ev.run_dir, folder=True)
    taskset = locate_named_file(run.taskset, ev.run_dir, folder=True)
    try:
        settings = load_dataset_settings(taskset) if (taskset / DATASET_FILE).is_file() else None
        task = load_task(folder, settings)
    except (OSError, TaskLoadError):
        return finding
    budget = task.verifier_timeout_sec
    test_sh = folder / "tests" / "test.sh"
    text = test_sh.read_text(encoding="utf-8", errors="replace") if test_sh.is_file() else ""
    # a pause longer than the whole budget before the checks that write the reward (a script that only sleeps
    # stands for a slow check: its budget is the setting to change)
    sleep = next((m for m in _SLEEP.finditer(text) if float(m["shell"] or m["python"]) >= budget
                  and _REWARD_WRITE.search(text, m.end())), None)
    if sleep is not None:
        line = text.count("\n", 0, sleep.start()) + 1
        seconds = float(sleep["shell"] or sleep["python"])
        return finding.model_copy(update={
            "category": VERIFIER_RUNTIME,
            "title": f"{finding.title}: its test.sh sleeps {seconds:g} s, past its {budget:g} s budget",
            "evidence": [EvidenceLine(file=ev.rel(test_sh), line=line, text=sleep.group(0).strip()), *finding.evidence],
            "cause": f"{finding.cause} The verifier itself waits past its budget: {ev.rel(test_sh)}:{line} sleeps "
                     f"{seconds:g} s, and the task's verifier may run {budget:g} s in all, so test.sh never reaches "
                     "its reward whatever the agent did (a pause left in while debugging, or a wait for a service "
                     "that should poll instead).",
            "fix": f"Remove the `{sleep.group(0).strip()}` from {ev.rel(test_sh)} (to look inside a task's container, "
                   f"run it by hand rather than pausing its test), check it with `gym-pipeline tasks validate "
                   f"{folder}`, then {run.rerun()}.",
        })
    if settings is None or task_id in settings.gym.tasks:
        return _with_the_tasks_own_limit(ev, folder, finding, budget)
    unmatched = [name for name in settings.gym.tasks if not (taskset / name).is_dir()]
    meant = get_close_matches(task_id, unmatched, n=1, cutoff=0.8)
    if not meant:
        return _with_the_tasks_own_limit(ev, folder, finding, budget)
    dataset = taskset / DATASET_FILE
    return finding.model_copy(update={
        "category": CONFIG,
        "title": f"{finding.title}: dataset.toml's override for it is under another name, \"{meant[0]}\"",
        "evidence": [EvidenceLine(file=ev.rel(dataset), line=line_holding(dataset.read_text(encoding="utf-8", errors="replace").splitlines(), meant[0]),
                                  text=f'[gym.tasks."{meant[0]}"] names no task of the taskset'), *finding.evidence],
        "cause": f"{finding.cause} {ev.rel(dataset)} overrides `[gym.tasks.\"{meant[0]}\"]`, a name no task has: "
                 f"the override applies to nothing, and {task_id} kept its own verifier budget ({budget:g} s).",
        "fix": f"Name the task as its folder is named: `[gym.tasks.\"{task_id}\".verifier]` in {ev.rel(dataset)}; "
               f"then {run.rerun()}.",
    })


def rule_time_budget(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    findings = _by_kind_findings(ev, run, TIMEOUT_KINDS, THROUGHPUT_RESOURCES, _time_budget_fix,
                                 _verifier_budget_reading)
    multiplier = _timeout_multiplier(ev, run) if findings else None
    if multiplier is None or multiplier[0] >= SHRUNK_MULTIPLIER:
        return findings
    value, dataset = multiplier
    return [finding.model_copy(update={
        "category": CONFIG,
        "title": f"{finding.title}, under a timeout_multiplier of {value:g}",
        "cause": f"{finding.cause} {dataset.name} sets `timeout_multiplier = {value:g}` in [gym.defaults]: every agent "
                 f"and verifier budget is {value:g} times the task's own, too short for any episode.",
        "fix": f"Set `timeout_multiplier` in [gym.defaults] of {ev.rel(dataset)} back to what was meant (1 keeps the "
               f"tasks' own budgets; above 1 for slow machines), then {run.rerun()}.",
    }) for finding in findings]


_NO_NETWORK = re.compile(r"Connection refused|Errno 111|Could not resolve|Name or service not known|Temporary failure "
                         r"in name resolution|Network is unreachable|Failed to connect|Couldn't connect", re.I)


def _no_network_reading(ev: Evidence, run: TaskFolderRun, finding: Finding, _kind: str, task_id: str) -> Finding:
    """A test that failed on a network call, in a sandbox the run gave no network: the task asks for it
    (`allow_internet`, true by default in task.toml) and the sweep's environment does not allow it."""
    first = next((row for _, row in run.rows if row.get("task_id") == task_id and row.get("episode_log_dir")), None)
    found = sweep_config_beside(ev.run_dir)
    if first is None or found is None:
        return finding
    environments = [e for e in found[0].environments if e.tasks is not None]
    if len(environments) != 1 or environments[0].allow_internet:
        return finding
    output = locate_named_file(Path(first["episode_log_dir"]) / "verifier" / TEST_STDOUT, ev.run_dir)
    text = output.read_text(encoding="utf-8", errors="replace") if output.is_file() else ""
    refused = _NO_NETWORK.search(text)
    try:
        asks = load_task(locate_named_file(run.task_path(task_id), ev.run_dir, folder=True)).config.environment.allow_internet
    except (OSError, TaskLoadError):
        return finding
    if refused is None or not asks:
        return finding
    line = text.count("\n", 0, refused.start()) + 1
    config = found[1]
    return finding.model_copy(update={
        "category": CONFIG,
        "title": f"{finding.title}: its test needs the network, and the run gave its sandbox none",
        "evidence": [EvidenceLine(file=ev.rel(output), line=line, text=text.splitlines()[line - 1].strip()),
                     *finding.evidence],
        "cause": f"{finding.cause} The test made a network call that failed ({refused.group(0)}): the task asks for "
                 f"the network (`allow_internet` is true in its task.toml), but the environment "
                 f"{environments[0].name} in {ev.rel(config)} does not set `allow_internet: true`, so its sandboxes "
                 "ran with no network at all (`--network none`) and the test could not reach what it calls.",
        "fix": f"Let the host give the task the network it asks for: `allow_internet: true` on environment "
               f"{environments[0].name} in {ev.rel(config)} (or make the test work offline: bake what it fetches into "
               f"the task's image or tests/); then {run.rerun()}.",
    })


_USER = re.compile(r"^\s*USER\s+(?P<user>\S+)", re.M | re.I)
_ROOT = {"root", "0", "0:0", "root:root"}


def task_dockerfile(run: TaskFolderRun, run_dir: Path, task: str) -> tuple[Path, str] | None:
    """(path, text) of `task`'s environment/Dockerfile, where the run folder or the task's recorded path has it."""
    dockerfile = locate_named_file(run.task_path(task), run_dir, folder=True) / "environment" / "Dockerfile"
    if not dockerfile.is_file():
        return None
    return dockerfile, dockerfile.read_text(encoding="utf-8", errors="replace")


def image_user(run: TaskFolderRun, run_dir: Path, task: str) -> tuple[str, Path, int, str] | None:
    """(user, the Dockerfile, its line, the line's text) when `task`'s image ends with a `USER` other than root: the
    sandbox's commands run as that user."""
    if (found := task_dockerfile(run, run_dir, task)) is None:
        return None
    dockerfile, text = found
    users = list(_USER.finditer(text))
    if not users or users[-1]["user"] in _ROOT:
        return None
    return users[-1]["user"], dockerfile, text.count("\n", 0, users[-1].start()) + 1, users[-1].group(0).strip()


_ENTRYPOINT = re.compile(r"^\s*ENTRYPOINT\s+(?:\[\s*\"(?P<exec_form>[^\"]+)\"|(?P<shell_form>\S+))", re.M)
_RUNS_ITS_ARGUMENTS = re.compile(r"\bexec\s+\"?\$(?:@|\{@\})|\"\$@\"|\$\*")
# the sandbox's words for a container that stopped under the episode (taskfolders/sandbox.py, episode.py), or Docker's
CONTAINER_STOPPED = re.compile(r"entrypoint exited with code|is not running|409 Client Error|No such container")


def entrypoint_running_nothing(run: TaskFolderRun, run_dir: Path, task: str) -> tuple[Path, int, str, Path] | None:
    """(the Dockerfile, its ENTRYPOINT line's number and text, the entrypoint script) when `task`'s image starts with an
    ENTRYPOINT script of the task's own that never runs the command it is given (no `exec "$@"`), and an attempt of
    the task failed with its container stopped."""
    if not any(row.get("task_id") == task and CONTAINER_STOPPED.search(str(row.get("_ng_failure_message", "")))
               for _, row in run.failures):
        return None
    if (found := task_dockerfile(run, run_dir, task)) is None:
        return None
    dockerfile, text = found
    if (entry := _ENTRYPOINT.search(text)) is None:
        return None
    script = dockerfile.parent / Path(entry["exec_form"] or entry["shell_form"]).name
    if not script.is_file() or _RUNS_ITS_ARGUMENTS.search(script.read_text(encoding="utf-8", errors="replace")):
        return None  # not the task's own script, or one that runs what it is given
    return dockerfile, text.count("\n", 0, entry.start()) + 1, entry.group(0).strip(), script


def rule_reward_kinds(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    # a task whose image runs as another user than root fails for that (task_settings reads it), whatever the kind
    as_user = {task for task in {str(row.get("task_id")) for _, row in run.rows} if image_user(run, ev.run_dir, task)}
    kinds = {row.get("failure_kind") for _, row in run.rows if row.get("task_id") not in as_user} \
        - set(TIMEOUT_KINDS) - {None}
    return _by_kind_findings(ev, run, kinds, VERIFIER_RUNTIME, partial(_reward_fix, run_dir=ev.run_dir),
                             _no_network_reading)


def rule_episodes_without_result(ev: Evidence) -> list[Finding]:
    """Episodes with neither a result nor a failed attempt: skipped tasks, or a collection that stopped."""
    run = task_folder_run(ev)
    failed = {(row.get("_ng_task_index"), row.get("_ng_rollout_index")) for _, row in run.failures} if run else set()
    missing = [key for key in ev.artifacts.missing_keys if key not in failed]
    if run is None or not missing:
        return []
    entries = {(e.get("_ng_task_index"), e.get("_ng_rollout_index")): e for e in run.summary.get("tasks", [])}
    skipped = sorted({str(entries[key]["task"]) for key in missing if entries.get(key, {}).get("status") == "skipped"})
    unrun = [key for key in missing if entries.get(key, {}).get("status") != "skipped"]
    return [Finding(
        category=CACHE_RESUME,
        title=f"{len(missing)} of {ev.artifacts.materialized.valid_rows} episodes have no result",
        evidence=[EvidenceLine(file=ev.rel(ev.run_dir / MATERIALIZED_INPUTS_FILE), line=None,
                               text=f"keys without a result: {sorted(missing)[:8]}")],
        cause=(f"Skipped, their task did not load: {_names(skipped)}. " if skipped else "")
              + (f"{plural(len(unrun), 'episode')} never ran: the collection stopped before them." if unrun else ""),
        fix=f"Once the cause is fixed, {run.rerun()}.",
        effect=True,
    )]


def _explained_failure(row: dict[str, Any]) -> bool:
    return (_no_sandbox(row) or FOLDER_CHANGED in str(row.get("_ng_failure_message", ""))
            or row.get("failure_kind") == TASK_DEADLINE)


# ---------------------------------------------------------------------------------------------
# Wiring: which generic rule each of these stands in for on a task-folder run.


def _instead_of(generic: Callable[[Evidence], list[Finding]],
                specific: Callable[[Evidence], list[Finding]]) -> Callable[[Evidence], list[Finding]]:
    def check(ev: Evidence) -> list[Finding]:
        return specific(ev) if task_folder_run(ev) is not None else generic(ev)
    return check


def _unless_all_explained(generic: Callable[[Evidence], list[Finding]]) -> Callable[[Evidence], list[Finding]]:
    """The generic reading of failed attempts, unless the task-folder rules explain every one of them."""
    def check(ev: Evidence) -> list[Finding]:
        run = task_folder_run(ev)
        if run is None:
            return generic(ev)
        # a task whose image's entrypoint never runs the sandbox's command fails every attempt for that (task_settings)
        stopped = {task for task in {str(row.get("task_id")) for _, row in run.failures}
                   if entrypoint_running_nothing(run, ev.run_dir, task)}
        if all(_explained_failure(row) or row.get("task_id") in stopped for _, row in run.failures):
            return []
        return generic(ev)
    return check


_REPLACED = {"stale_inputs": rule_task_folder_changed, "time_budget_kinds": rule_time_budget,
             "failure_kinds": rule_reward_kinds, "missing_rollouts": rule_episodes_without_result}
# ---------------------------------------------------------------------------------------------
# A task's sandbox too small for its work: the agent's commands killed (exit 137) and every episode scored 0

_KILLED = re.compile(r"exit code 137\b|\bKilled\b")
MAX_TRANSCRIPTS = 200  # read, at most: enough to name the tasks


def never_scored(run: TaskFolderRun) -> list[str]:
    """The tasks every scored episode of which got reward 0."""
    return [task for task, values in _rewards_of(run).items() if values and not any(values)]


def tests_of_unscored_tasks(ev: Evidence, run: TaskFolderRun) -> Iterator[tuple[str, Path, list[str]]]:
    """(task, its tests/test.sh, its lines) of each task that never scored, whose test can be read."""
    for task in never_scored(run):
        if (script := test_script(run, ev.run_dir, task)) is not None:
            yield task, *script


def tests_of_scored_tasks(ev: Evidence, run: TaskFolderRun) -> Iterator[tuple[str, set[float], Path, list[str]]]:
    """(task, the rewards its episodes got, its tests/test.sh, its lines) of each scored task whose test can be read."""
    for task, rewards in _rewards_of(run).items():
        if rewards and (script := test_script(run, ev.run_dir, task)) is not None:
            yield task, set(rewards), *script


def always_scored(run: TaskFolderRun) -> list[str]:
    """The tasks every scored episode of which got the full reward."""
    return [task for task, values in _rewards_of(run).items() if values and all(value >= 1 for value in values)]


def task_config(ev: Evidence, run: TaskFolderRun, task: str) -> TaskConfig | None:
    """The task's task.toml as the loader reads it; None when it does not load."""
    folder = locate_named_file(run.task_path(task), ev.run_dir, folder=True)
    try:
        return load_task(folder).config
    except (OSError, TaskLoadError):
        return None


def _task_memory_mb(ev: Evidence, run: TaskFolderRun, task: str) -> int | None:
    """The memory the task gives its sandbox; None when its task.toml does not load."""
    config = task_config(ev, run, task)
    return config.environment.memory_mb if config else None


def first_line_of_unscored_tasks(ev: Evidence, run: TaskFolderRun, episode_file: str,
                                  pattern: re.Pattern[str]) -> dict[str, EvidenceLine]:
    """For each task that never scored, the first line matching `pattern` in one of its episodes' `episode_file`
    (`agent/transcript.json`, `verifier/test-stdout.txt`), reading at most MAX_TRANSCRIPTS files."""
    never = set(never_scored(run))
    episodes = ev.run_dir / "rollouts_episodes"
    found: dict[str, EvidenceLine] = {}
    for path in sorted(episodes.glob(f"*/*/attempt_*/{episode_file}"))[:MAX_TRANSCRIPTS]:
        task = path.relative_to(episodes).parts[0]
        if task in found or task not in never:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if pattern.search(line):
                found[task] = EvidenceLine(file=ev.rel(path), line=number, text=line.strip())
                break
    return found


def rule_sandbox_commands_killed(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    killed = first_line_of_unscored_tasks(ev, run, "agent/transcript.json", _KILLED)
    if not killed:
        return []
    task = next(iter(killed))
    memory = _task_memory_mb(ev, run, task)
    return [Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"The agent's commands were killed in the sandbox of {_names(killed)} (exit 137, out of memory)"
              + (f" under memory_mb = {memory}" if memory else "") + "; every episode of it scored 0",
        evidence=list(killed.values())[:3],
        cause="A command the agent ran in the task's sandbox was killed (`Killed`, exit code 137: the container's "
              "memory limit) before it could write its result, so the verifier found nothing and scored 0"
              + (f"; the task gives its sandbox {memory} MB ([environment] memory_mb of task.toml)" if memory else "")
              + ". The model is not at fault: the sandbox is too small for the task's work.",
        fix=f"Raise `memory_mb` in [environment] of {run.task_path(task)}/task.toml (or the dataset's override for the "
            f"task) to what its work needs, check the oracle passes (`gym-pipeline tasks validate "
            f"{run.task_path(task)}`), then {run.rerun()}.",
    )]


# ---------------------------------------------------------------------------------------------
# A task's own test.sh failing in the shell (a test it cannot evaluate) while it still writes a reward of 0

# bash's `test.sh: line 5: ...` and dash's `/tests/check.sh: 5: ...` (a `#!/bin/sh` script in a Debian image)
# (also quoted inside the test's own message, where it captured a command's errors: `holds '/tests/test.sh: ...'`)
_SHELL_ERROR = re.compile(r"(?:^|(?<=['\"(]))(?:\S*\.sh|\S*bash|sh): (?:line \d+: |\d+: )?[^\n]*?(?:integer expression expected|unary "
                          r"operator expected|binary operator expected|too many arguments|syntax error|bad substitution"
                          r"|command not found|: not found|Permission denied)")
# what bash has and dash (a Debian image's /bin/sh) does not: dash says `<script>: <line>: [[: not found`
_BASH_ONLY = frozenset({"[[", "source", "declare", "shopt", "function", "typeset", "mapfile", "readarray", "pushd"})


_INTERPRETERS = {".py": "python3", ".sh": "sh", ".bash": "bash", ".pl": "perl"}


def _not_executable(run: TaskFolderRun, run_dir: Path, task: str, text: str) -> str:
    """For a test.sh that could not run one of the task's own files (`/tests/check_top.py: Permission denied`): the
    sentence saying the task folder keeps that file without its executable bit, and what to do; else ''."""
    denied = re.search(r"(?P<path>/tests/[\w./-]+): Permission denied", text)
    if denied is None:
        return ""
    checker = locate_named_file(run.task_path(task), run_dir, folder=True) / denied["path"].lstrip("/")
    if not checker.is_file() or checker.stat().st_mode & 0o111:
        return ""
    return (f"; tests/{Path(denied['path']).name} has no executable bit in the task folder (unpacked by a tool that "
            "does not restore file modes, such as `python -m zipfile -e`, or copied without them): `chmod +x "
            f"{run.task_path(task)}/tests/{Path(denied['path']).name}` (and unpack with `unzip`, which keeps modes), "
            "or have test.sh run it through its interpreter (`"
            f"{_INTERPRETERS.get(Path(denied['path']).suffix, '<interpreter>')} {denied['path']}`)")


def _bash_under_sh(run: TaskFolderRun, run_dir: Path, task: str, text: str) -> str:
    """For a task script started `#!/bin/sh` that uses what only bash has (`[[`, `source`): the sentence saying the
    image's /bin/sh is dash, and what to do; else ''."""
    refused = re.search(r"(?P<path>/tests/[\w./-]+): (?P<line>\d+): (?P<command>\S+): not found", text)
    if refused is None or refused["command"] not in _BASH_ONLY:
        return ""
    script = locate_named_file(run.task_path(task), run_dir, folder=True) / refused["path"].lstrip("/")
    try:
        first = script.read_text(encoding="utf-8", errors="replace").splitlines()[0].strip()
    except (OSError, IndexError):
        return ""
    if not re.fullmatch(r"#!\s*/bin/sh\b.*", first):
        return ""
    name = f"tests/{Path(refused['path']).name}"
    return (f"; {name} starts `{first}` and uses bash's `{refused['command']}` at line {refused['line']}: the image's "
            f"/bin/sh is dash (Debian, Ubuntu), which has no `{refused['command']}` (on a machine where sh is bash it "
            f"works): start it `#!/bin/bash`, or write it for sh (`[ \"$a\" = \"$b\" ]` for `[[ $a == $b ]]`, `.` for "
            f"`source`); `checkbashisms {name}` finds the rest")


def _search_path_replaced(run: TaskFolderRun, run_dir: Path, task: str, text: str) -> str:
    """For a test script whose command was not found because the script assigns PATH a value of its own
    (`PATH=/app/version.txt`, a variable that took the search path's name): the sentence naming that line; else ''."""
    missing = re.search(r"(?P<path>/tests/[\w./-]+): line \d+: \S+: command not found", text)
    if missing is None:
        return ""
    script = locate_named_file(run.task_path(task), run_dir, folder=True) / missing["path"].lstrip("/")
    try:
        lines = script.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    number, line = next(((n, line) for n, line in enumerate(lines, 1) if PATH_REPLACED.match(line)), (0, ""))
    if not number:
        return ""
    assignment = line.split("#", 1)[0].strip()
    return (f"; tests/{Path(missing['path']).name} line {number} `{assignment}` gives the shell's PATH (where it "
            "looks for commands) a value of its own, so no command after it is found: rename that variable "
            "(`ANSWER_FILE=...`) and use the new name")


def rule_test_script_errors(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    broken = first_line_of_unscored_tasks(ev, run, f"verifier/{TEST_STDOUT}", _SHELL_ERROR)
    if not broken:
        return []
    task, first = next(iter(broken.items()))
    missing = re.search(r"(?:line (?P<line>\d+): )?(?P<command>[\w.+-]+): command not found", first.text)
    other_name = {"python": "python3", "pip": "pip3"}.get(missing["command"]) if missing else None
    replaced = _search_path_replaced(run, ev.run_dir, task, first.text)
    named = replaced or (f"; at line {missing['line'] or '?'} it calls `{missing['command']}`, which the image lacks"
             + (f": call `{other_name}` (the image's name for it), or install `{missing['command']}` in the task's "
                "image" if other_name else ": install it in the task's image (environment/Dockerfile), or call a "
                "command the image has") if missing else "")
    named += _not_executable(run, ev.run_dir, task, first.text) + _bash_under_sh(run, ev.run_dir, task, first.text)
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"The test script of {_names(broken)} fails in the shell and every episode of it scored 0",
        evidence=list(broken.values())[:3],
        cause=f"test.sh itself errs ({first.text}): the shell cannot run one of its checks (a text compared with "
              "`-eq`, an unquoted empty variable, a command the image lacks), so the check fails whatever the agent "
              "did and the script writes 0. The model is not at fault: the verifier is.",
        fix=f"Fix {run.task_path(task)}/tests/test.sh at the line the error names (compare text with `=` inside "
            f"`[ ]`, numbers with `-eq`; quote variables: `\"$x\"`; install what it calls in the image{named}), "
            f"check it with the oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must score 1), then "
            f"{run.rerun()}.",
    )]


# a tool the test runs refusing what it was given: most often a feature of another build of the tool (gawk's asort
# under mawk, GNU sed's options under busybox), the same in every episode whatever the agent did
_TOOL_REFUSED = re.compile(r"^(?P<tool>[\w.+-]+): (?:line \d+: )?[^\n]*?(?:function \w+ never defined|invalid option"
                           r"|illegal option|unrecognized option|unknown option|not supported|unknown function)")
_OTHER_BUILDS = {"awk": "GNU awk (`gawk`); the image's awk is another (mawk, busybox)",
                 "sed": "GNU sed; the image's sed is another (busybox)",
                 "grep": "GNU grep; the image's grep is another (busybox)"}


def rule_test_tool_refuses_in_every_episode(ev: Evidence) -> list[Finding]:
    """The same refusal of a tool the test runs (`awk: line 2: function asort never defined`) in the test output of
    every episode of a task: the test cannot compute what it checks in that image, so its rewards say nothing of the
    agent (0 for right work, or 1 where an empty result equals an empty expectation)."""
    run = task_folder_run(ev)
    if run is None:
        return []
    episodes = ev.run_dir / "rollouts_episodes"
    said: dict[str, list[EvidenceLine | None]] = defaultdict(list)
    for path in sorted(episodes.glob(f"*/*/attempt_*/verifier/{TEST_STDOUT}"))[:MAX_TRANSCRIPTS]:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        found = next((EvidenceLine(file=ev.rel(path), line=n, text=text.strip()) for n, text in enumerate(lines, 1)
                      if _TOOL_REFUSED.search(text.strip())), None)
        said[path.relative_to(episodes).parts[0]].append(found)
    for task, lines in said.items():
        texts = {line.text for line in lines if line is not None}
        if None in lines or len(texts) != 1:
            continue
        first = lines[0]
        tool = _TOOL_REFUSED.search(first.text)["tool"]
        script = test_script(run, ev.run_dir, task)
        used = next(((n, text.strip()) for n, text in enumerate(script[1], 1) if re.search(rf"\b{re.escape(tool)}\b",
                                                                                          text)), None) if script else None
        build = _OTHER_BUILDS.get(tool)
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} fails at the same line in "
                  + (f"all {len(lines)} of its episodes" if len(lines) > 1 else "its episode") + f": `{first.text}`",
            evidence=[first, *([EvidenceLine(file=ev.rel(script[0]), line=used[0], text=used[1])] if used else [])],
            cause=f"The test output shows `{first.text}`, whatever the agent did: {tool} in the task's "
                  "image does not do what test.sh asks of it"
                  + (f" (it needs {build})" if build else "")
                  + ", so the test computes its expectation (or its check) wrong and the rewards of this task say "
                    "nothing of the agent: right work scores 0, and a missing result may even score 1.",
            fix=f"In {run.task_path(task)}/tests/test.sh"
                + (f" (line {used[0]}: `{used[1]}`)" if used else "")
                + f", use only what the image's {tool} supports"
                + (", or install gawk in the task's Dockerfile (`apt-get install -y gawk`)" if tool == "awk" else
                   f", or install the {tool} it needs in the task's Dockerfile")
                + f"; check it with the oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must score 1) "
                  f"and with an empty answer (which must score 0), then {run.rerun()}.",
        )]
    return []


_PYTHON_SYNTAX_ERROR = re.compile(r"^\s*SyntaxError: ")
_INLINE_PYTHON = re.compile(r"\bpython[\d.]*\s+(?:-\w+\s+)*-c\s")


def rule_test_python_the_sandbox_cannot_parse(ev: Evidence) -> list[Finding]:
    """A task whose test.sh runs Python code (`python3 -c '...'`) that the sandbox's Python cannot parse: the check
    dies with a SyntaxError and the test writes 0, whatever the agent did."""
    run = task_folder_run(ev)
    if run is None:
        return []
    for task, error in first_line_of_unscored_tasks(ev, run, f"verifier/{TEST_STDOUT}", _PYTHON_SYNTAX_ERROR).items():
        script = test_script(run, ev.run_dir, task)
        inline = next(((n, line.strip()) for n, line in enumerate(script[1], 1) if _INLINE_PYTHON.search(line)),
                      None) if script else None
        if inline is None:
            continue
        number, line = inline
        where = f"{run.task_path(task)}/tests/test.sh"
        newer = ("quotes of an f-string reused inside it (`f\"{d[\"key\"]}\"`) parse only from Python 3.12 on"
                 if "f-string" in error.text else "it uses syntax this Python does not have")
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"{task}'s tests/test.sh:{number} runs Python the sandbox's python3 cannot parse ({error.text}); "
                  f"every episode of {task} scored 0",
            evidence=[error, EvidenceLine(file=ev.rel(script[0]), line=number, text=line)],
            cause=f"test.sh:{number} hands `python3 -c` code the sandbox's Python refuses before running it: {newer} "
                  "(written on a machine with a newer Python than the image's). The check prints nothing, so the "
                  "test compares against an empty value and writes 0 whatever the agent did.",
            fix=f"Rewrite the Python of {where}:{number} for the image's python3 (check it: `docker run --rm <image> "
                "python3 --version`): with other quotes inside the f-string (`f\"{d['key']}\"`) or without one; "
                f"check the task with its oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must "
                f"score 1), then {run.rerun()}.",
        )]
    return []


# ---------------------------------------------------------------------------------------------
# A task's test.sh reading a file of its own tests/ folder by a path where it is not (a relative path after `cd /app`)

_UNREADABLE = re.compile(r"^(?:\S+: )?(?:line \d+: )?(?P<path>[^\s:]+): No such file or directory")


def _own_files_not_found(ev: Evidence, run: TaskFolderRun) -> dict[str, tuple[EvidenceLine, str]]:
    """For each task whose test output says a file is missing that its tests/ folder holds (and not at the path it
    was read by), the first such line and the file's name; reading at most MAX_TRANSCRIPTS files."""
    episodes = ev.run_dir / "rollouts_episodes"
    found: dict[str, tuple[EvidenceLine, str]] = {}
    for path in sorted(episodes.glob(f"*/*/attempt_*/verifier/{TEST_STDOUT}"))[:MAX_TRANSCRIPTS]:
        task = path.relative_to(episodes).parts[0]
        if task in found:
            continue
        tests = locate_named_file(run.task_path(task), ev.run_dir, folder=True) / "tests"
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            missing = _UNREADABLE.match(line.strip())
            name = missing and Path(missing["path"]).name
            if name and missing["path"] != f"/tests/{name}" and (tests / name).is_file():
                found[task] = (EvidenceLine(file=ev.rel(path), line=number, text=line.strip()), name)
                break
    return found


def rule_test_reads_its_files_elsewhere(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    found = _own_files_not_found(ev, run)
    if not found:
        return []
    task, (first, name) = next(iter(found.items()))
    return [Finding(
        category=VERIFIER_RUNTIME,
        title=f"The test of {_names(found)} cannot find its own tests/{name}, so its rewards do not measure the "
              "agent",
        evidence=[line for line, _ in found.values()][:3],
        cause=f"The task's tests folder holds {name}, and the sandbox mounts it at /tests/{name}; test.sh reads it by "
              "another path (a relative one, resolved against the folder it `cd`s to), finds nothing and goes on "
              "comparing the agent's work with an empty text: it fails agents that did the task and can pass one "
              "that did nothing. The model is not at fault: the verifier is.",
        fix=f"In {run.task_path(task)}/tests/test.sh read it as /tests/{name} (or `\"$(dirname \"$0\")/{name}\"`), and "
            "stop the test when a file of its own is missing (`set -e`, or test `-f` first); check it with the "
            f"oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must score 1), then {run.rerun()}.",
    )]


# ---------------------------------------------------------------------------------------------
# A task's data file re-saved by another tool: Windows line endings, `;` separators, a byte-order mark

# spaces a word processor or a web page puts between words, which only the ASCII space splits
_UNICODE_SPACES = {"\u00a0": "non-breaking space", "\u202f": "narrow non-breaking space", "\u2007": "figure space",
                   "\u2009": "thin space", "\u200b": "zero-width space", "\u3000": "ideographic space"}
_DATA_SUFFIXES = {".txt", ".csv", ".tsv", ".json", ".jsonl", ".yaml", ".yml", ".dat", ".list", ".log"}
MAX_DATA_FILE_BYTES = 1 << 20


def _reformatted(path: Path) -> tuple[str, str, str] | None:
    """(what, why it matters, how to save it again) of how a task's small text data file was re-saved, when it reads
    otherwise than a tool expects."""
    try:
        content = path.read_bytes()[:MAX_DATA_FILE_BYTES]
    except OSError:
        return None
    if content.startswith(b"version https://git-lfs.github.com/spec/"):
        return "the three lines of a Git LFS pointer, not its data", "the repository tracks it with Git LFS and it was " \
            "cloned on a machine without git-lfs, so the checkout (and the image built from it) holds the pointer " \
            "(`version`, `oid`, `size`) where the table belongs", \
            f"with its real content in place of the pointer: `git lfs install && git lfs pull --include '{path.name}'` in the task repository " \
            "(install git-lfs on the node first), then rebuild the task's image"
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16 text (a byte-order mark and a NUL byte beside every letter)", "whatever reads it as UTF-8 (the " \
            "agent given it, the tools in the sandbox) gets unreadable text (an editor re-saved it in UTF-16)", \
            f"in UTF-8: `iconv -f UTF-16 -t UTF-8 {path.name} > {path.name}.utf8 && mv {path.name}.utf8 {path.name}`"
    if content.startswith(b"\xef\xbb\xbf"):
        return "a byte-order mark", "its first value starts with an invisible U+FEFF (a spreadsheet's or Notepad's " \
            "export)", f"in UTF-8 without the BOM: `sed -i '1s/^\\xEF\\xBB\\xBF//' {path.name}`"
    if b"\r\n" in content:
        return "Windows (CRLF) line endings", "every line read in the sandbox ends with a carriage return", \
            f"with Unix line endings: `sed -i 's/\\r$//' {path.name}` or `dos2unix {path.name}`"
    if content.count(b"\r") > 1 and b"\n" not in content.rstrip(b"\r\n"):
        return "bare carriage returns (\\r) ending its lines, and no newline", "for grep, wc, sort and every line tool " \
            "the whole file is one line (`grep -c` counts 1, `wc -l` 0): an export of a tool that writes old Mac line " \
            "endings", f"with Unix line endings (each carriage return a newline): `tr '\\r' '\\n' < {path.name} > {path.name}.unix && mv {path.name}.unix " \
            f"{path.name}`"
    text = content.decode("utf-8", errors="replace")
    if spaces := sorted({char for char in text if char in _UNICODE_SPACES}):
        named = ", ".join(f"U+{ord(char):04X} `\\u{ord(char):04x}` ({_UNICODE_SPACES[char]})" for char in spaces)
        return f"Unicode spaces between its words: {named}", "they look like spaces but are not the ASCII space, so " \
            "`tr ' '`, `cut -d' '`, `awk -F' '` and a test comparing words do not split on them (pasted from a word " \
            "processor or a web page)", f"with plain spaces for its {named}: `sed -i 's/\\xC2\\xA0/ /g' {path.name}` (or `iconv`/an " \
            "editor's replace for the others), then check with `grep -P '[^\\x00-\\x7F]' " + f"{path.name}`"
    lines = content.splitlines()
    padded = {line.rstrip() for line in lines if line != line.rstrip()}
    if padded & {line for line in lines if line == line.rstrip()}:  # `apple ` beside `apple`
        return "trailing spaces on some lines", "a value with a trailing space is another value than the same one " \
            "without (`sort -u` keeps both, a comparison fails): re-exported by a spreadsheet", \
            f"without trailing spaces: `sed -i 's/[[:space:]]*$//' {path.name}`"
    header = content.split(b"\n", 1)[0]
    if path.suffix == ".csv" and b";" in header and b"," not in header:
        return "`;` between its fields", "a tool splitting on `,` reads each line as one field (a spreadsheet saved it "\
            "with a European locale)", f"with `,` as the separator (export {path.name} again with it)"
    if path.suffix == ".json" and (twice := keys_given_twice(content.decode("utf-8", errors="replace"))):
        key, values = twice[0]
        shown = ", then ".join(json.dumps(value) for value in values)
        return (f"its `{key}` key given twice ({shown}): a duplicate key", "every JSON reader (the agent's tools, "
                f"`jq`, Python's json) keeps the last one, {json.dumps(values[-1])}, so what the task was built on "
                f"({json.dumps(values[0])}) is not what anything reads (a script appended a key instead of replacing "
                "it)", f"with one `{key}` key, the value the task expects (remove the duplicate)")
    if path.suffix == ".csv" and (column := _currency_column(content)) is not None:
        name, example = column
        return f"its {name} column in a currency format (`{example}`)", f"a tool that sums or compares the {name} " \
            "column reads text, not numbers (`awk` takes `$120.00` for 0): a spreadsheet re-exported it with its " \
            "Currency format", f"with the {name} column as plain numbers (General or Number format, no currency sign)"
    if path.suffix == ".csv" and (summary := _summary_row(content)) is not None:
        row, name = summary
        return f"a summary row at its end (`{row}`)", f"whatever totals or counts the {name} column counts the " \
            "summary too (a sum comes out doubled): the export appends its totals", \
            f"without the summary row (`sed -i '$d' {path.name}`, or export {path.name} again without totals)"
    return None


_SUMMARY_LABEL = re.compile(r"^\s*(?:grand\s+)?(?:total|sum|subtotal|totals)\s*:?\s*$", re.IGNORECASE)


def _summary_row(content: bytes) -> tuple[str, str] | None:
    """(the row, the column) of a CSV whose last row is a totals row: a label such as TOTAL, and in a numeric column
    the sum of the rows above it."""
    try:
        rows = [row for row in csv.reader(io.StringIO(content.decode("utf-8", errors="replace"))) if row]
    except csv.Error:
        return None
    if len(rows) < 3 or not any(_SUMMARY_LABEL.match(cell) for cell in rows[-1]):
        return None
    header, values, last = rows[0], rows[1:-1], rows[-1]
    for index, name in enumerate(header):
        try:
            column = sum(float(row[index]) for row in values if len(row) > index)
            total = float(last[index]) if len(last) > index else None
        except ValueError:
            continue
        if total is not None and abs(column - total) < 1e-6 * max(1.0, abs(total)):
            return ",".join(last), name.strip()
    return None


_CURRENCY_CELL = re.compile(r"^\s*\(?-?[$€£¥]\s?-?\d[\d,]*(?:\.\d+)?\)?\s*$|^\s*-?\d[\d.,]*\s?[€£]\s*$")


def _currency_column(content: bytes) -> tuple[str, str] | None:
    """(name, first value) of a CSV column whose values are mostly amounts with a currency sign (`$120.00`)."""
    text = content.decode("utf-8", errors="replace")
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error:
        return None
    if len(rows) < 2:
        return None
    header, values = rows[0], rows[1:]
    for index, name in enumerate(header):
        cells = [row[index] for row in values if len(row) > index and row[index].strip()]
        money = [cell for cell in cells if _CURRENCY_CELL.match(cell)]
        if cells and len(money) * 2 >= len(cells):
            return name.strip(), money[0].strip()
    return None


_COLUMN_LIST = re.compile(r"\b[\w ]+(?:,\s*[\w ]+)+\b")


def _columns_reordered(path: Path, instruction: str) -> tuple[str, str, str] | None:
    """(what, why, how) of a CSV whose header names the columns the instruction lists, in another order: re-exported
    by a tool that moved a column, while the instruction (and a solution taking fields by position) kept the old one."""
    if path.suffix.lower() != ".csv":
        return None
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            header = [name.strip() for name in file.readline().split(",")]
    except OSError:
        return None
    for listed in _COLUMN_LIST.findall(instruction):
        stated = [name.strip() for name in listed.split(",")]
        stated = [stated[0].split()[-1], *stated[1:]] if stated and stated[0].split() else stated  # "the columns a"
        if len(stated) == len(header) > 1 and sorted(stated) == sorted(header) and stated != header:
            # the one column whose move explains the new order (the others keep theirs), else the first that differs
            moved = next((name for name in header if [n for n in header if n != name] == [n for n in stated if n != name]),
                         next(name for name, where in zip(header, stated, strict=True) if name != where))
            return (f"its columns in another order ({','.join(header)}) than instruction.md says "
                    f"({','.join(stated)})", f"a tool or a solution taking the {moved} column by its position reads "
                    f"another column: the file was re-exported with the {moved} column moved",
                    f"with its columns in the order instruction.md gives ({','.join(stated)}), or make instruction.md "
                    "(and the solution) name the columns as the file has them now")
    return None


_UPPER_WORD = re.compile(r"\b[A-Z]{3,}\b")


def _case_changed(path: Path, instruction: str) -> tuple[str, str, str] | None:
    """(what, why, how) of a data file that no longer holds a word the instruction names in capitals (ERROR), and
    holds it in another case (`[error]`): re-exported by a tool that writes it otherwise."""
    if path.name == "instruction.md" or not instruction:
        return None
    try:
        text = path.read_bytes()[:MAX_DATA_FILE_BYTES].decode("utf-8", errors="replace")
    except OSError:
        return None
    for word in dict.fromkeys(_UPPER_WORD.findall(instruction)):
        if re.search(rf"\b{word}\b", text):
            continue
        other = [line for line in text.splitlines() if re.search(rf"\b{word}\b", line, re.IGNORECASE)]
        if other:
            written = re.search(rf"\b{word}\b", other[0], re.IGNORECASE)[0]
            return (f"no line with {word}, which instruction.md asks about, and {len(other)} with `{written}` "
                    f"(`{other[0].strip()[:60]}`)", f"the word is written in another case than the task was built "
                    f"on: a search for {word} (`grep -c {word}`) finds none, so the agent's count, and the task's "
                    "score, come out 0 (the file was re-exported by a tool that writes it otherwise)",
                    f"with {word} written as instruction.md and the test expect it, or make instruction.md (and the "
                    f"test's expected value) say what the file holds now (`{written}`)")
    return None


def rule_task_data_files_reformatted(ev: Evidence) -> list[Finding]:
    """A task that never scored whose environment (or test) data file reads otherwise than before: re-saved by a
    spreadsheet or an editor on another system (or another export tool), so the agent's tools and the test read other
    values."""
    run = task_folder_run(ev)
    if run is None:
        return []
    for task in never_scored(run):
        folder = locate_named_file(run.task_path(task), ev.run_dir, folder=True)
        try:
            instruction = (folder / "instruction.md").read_text(encoding="utf-8", errors="replace")
        except OSError:
            instruction = ""
        for path in sorted([folder / "instruction.md", *folder.glob("environment/**/*"), *folder.glob("tests/**/*")]):
            if (path.suffix.lower() not in _DATA_SUFFIXES and path.name != "instruction.md") or not path.is_file():
                continue
            if (found := _reformatted(path) or _columns_reordered(path, instruction)
                    or _case_changed(path, instruction)) is None:
                continue
            what, why, how = found
            return [Finding(
                category=DATA_SCHEMA,
                title=f"{task}'s {path.name} has {what}; every episode of {task} scored 0",
                evidence=[EvidenceLine(file=ev.rel(path), text=f"{what}: {why}")],
                cause=f"{ev.rel(path)} has {what}: {why}. The agent's tools and the task's test read it as written, so "
                      "the values they get are not the ones the task was built on, and the task scores 0 whatever "
                      "the agent does.",
                fix=f"Save {path.name} again as the task expects, {how}; check the task with its oracle (`gym-pipeline "
                    f"tasks validate {run.task_path(task)}`, which must score 1), then {run.rerun()}.",
            )]
    return []


# A task's test.sh checking a file its instruction never asks for (one renamed on one side only)

_APP_PATH = re.compile(r"/app/[\w.-]+(?:/[\w.-]+)*")


def _app_paths(text: str) -> set[str]:
    """The paths under /app a text names (a sentence's final period is not part of a path)."""
    return {path.rstrip(".") for path in _APP_PATH.findall(text)}


def _renamed(checked: str, asked: str) -> bool:
    """Whether `checked` is `asked` renamed on one side: in the same folder, or the same file in another folder."""
    (checked_folder, checked_name), (asked_folder, asked_name) = checked.rsplit("/", 1), asked.rsplit("/", 1)
    return checked_folder == asked_folder or checked_name == asked_name


_COUNT_OVER_A_GLOB = re.compile(r"\bgrep\s+(?:-\w+\s+)*-\w*c\w*\s+[^|;&)\n]*\*[^|;&)\n]*")
_PER_FILE_COUNT = re.compile(r"(?:^|[=\s])(/[\w./-]+):(\d+)(?:\s|$)")  # `want=/app/server.log:3`


def rule_test_counts_over_several_files(ev: Evidence) -> list[Finding]:
    """A test computing its expected value with `grep -c PATTERN /app/*.log` over a glob that matches several files (its
    own log among them): grep then prints `FILE:COUNT` per file, not a number, and no answer equals that."""
    run = task_folder_run(ev)
    if run is None:
        return []
    episodes = ev.run_dir / "rollouts_episodes"
    for task in never_scored(run):
        folder = locate_named_file(run.task_path(task), ev.run_dir, folder=True)
        try:
            test = (folder / "tests" / "test.sh").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        counting = next(((number, text.strip(), match.group(0).strip()) for number, text in enumerate(test.splitlines(), 1)
                         if not text.lstrip().startswith("#") and (match := _COUNT_OVER_A_GLOB.search(text))), None)
        output = next(iter(sorted(episodes.glob(f"{task}/*/attempt_*/verifier/{TEST_STDOUT}"))), None)
        if counting is None or output is None:
            continue
        lines = output.read_text(encoding="utf-8", errors="replace").splitlines()
        counts = [(number, line.strip()) for number, line in enumerate(lines, 1) if _PER_FILE_COUNT.search(line.strip())]
        if len(counts) < 2:
            continue
        files = [_PER_FILE_COUNT.search(text)[1] for _, text in counts]
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} counts with `{counting[2]}` over {len(files)} files, and grep prints a "
                  "`FILE:COUNT` line for each, not a number; every episode of it scored 0",
            evidence=[EvidenceLine(file=ev.rel(folder / "tests" / "test.sh"), line=counting[0], text=counting[1]),
                      *(EvidenceLine(file=ev.rel(output), line=number, text=text) for number, text in counts[:2])],
            cause=f"`grep -c` given several files counts in each and prefixes every count with its file's name "
                  f"({', '.join(files)}): the glob matches more than the file meant (the test's own log among them), "
                  "so the value compared is a list of `FILE:COUNT` lines that no answer equals, whatever the agent did.",
            fix=f"Instead of `{counting[2]}`, count over the one file meant (`grep -c PATTERN /app/<file>`), or over "
                f"their joined text (`cat <files> | grep -c PATTERN`), and keep the test's own log out of the glob (write it under "
                f"/logs/verifier, not /app); check it with the oracle (`gym-pipeline tasks validate "
                f"{run.task_path(task)}`), then {run.rerun()}.",
        )]
    return []


_WRITTEN_BY_THE_TEST = re.compile(r"(?:>>?|\btee\s+(?:-a\s+)?)\s*[\"']?(/app/[\w./-]+)")


def rule_test_checks_unasked_paths(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    for task in never_scored(run):
        folder = locate_named_file(run.task_path(task), ev.run_dir, folder=True)
        try:
            instruction = (folder / "instruction.md").read_text(encoding="utf-8", errors="replace")
            test = (folder / "tests" / "test.sh").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        commands = "\n".join(line for line in test.splitlines() if not line.lstrip().startswith("#"))
        # a file the test writes itself (its own log: `>> /app/verify.log`, `tee -a /app/verify.log`) is not checked
        written = set(_WRITTEN_BY_THE_TEST.findall(commands))
        asked, checked = _app_paths(instruction), _app_paths(commands) - written
        # a rename on one side: the test checks a file beside one the instruction asks for (same folder), or the
        # same file in another folder, and never the one asked for
        unasked = sorted(path for path in checked - asked
                         if any(_renamed(path, other) for other in asked - checked))
        if not unasked:
            continue
        line, text = next((number, text) for number, text in enumerate(test.splitlines(), 1)
                          if unasked[0] in text and not text.lstrip().startswith("#"))
        meant = next(other for other in sorted(asked - checked) if _renamed(unasked[0], other))
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} checks {unasked[0]}, which its instruction never asks for; every episode of it "
                  "scored 0",
            evidence=[EvidenceLine(file=ev.rel(folder / "tests" / "test.sh"), line=line, text=text.strip())],
            cause=f"instruction.md asks for {', '.join(sorted(asked))}, and tests/test.sh checks {', '.join(unasked)}: "
                  "a file renamed on one side only, so the test fails whatever the agent did. The model is not at "
                  "fault: the verifier is.",
            fix=f"Make {run.task_path(task)}/tests/test.sh check {meant} (what instruction.md asks for) instead of "
                f"{unasked[0]} (or the instruction ask for {unasked[0]}), check it with the oracle (`gym-pipeline tasks validate "
                f"{run.task_path(task)}`, which must score 1), then {run.rerun()}.",
        )]
    return []


# ---------------------------------------------------------------------------------------------
# A task image that works in another folder than the one its instruction and test use (a team template's WORKDIR)

# `cd: /app: No such file or directory`, `ls: cannot access '/app/x'`, `/app/top.txt: No such file or directory`
_FOLDER_NOT_FOUND = re.compile(r"(?:\bcd: |cannot access '|(?<![\w/.-]))(?P<folder>/[\w.-]+)(?:/[\w./-]*)?'?: No such "
                               r"file or directory")
_WORKDIR = re.compile(r"^\s*WORKDIR\s+(?P<folder>\S+)", re.M | re.I)


def rule_task_image_without_the_tasks_folder(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    missing = first_line_of_unscored_tasks(ev, run, "verifier/test-stdout.txt", _FOLDER_NOT_FOUND)
    moved: dict[str, tuple[EvidenceLine, EvidenceLine, str]] = {}
    for task, said in missing.items():
        folder = _FOLDER_NOT_FOUND.search(said.text)["folder"]
        task_folder = locate_named_file(run.task_path(task), ev.run_dir, folder=True)
        try:
            instruction = (task_folder / "instruction.md").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if (found := task_dockerfile(run, ev.run_dir, task)) is None or folder not in instruction:
            continue
        dockerfile, text = found
        workdirs = list(_WORKDIR.finditer(text))
        if not workdirs or re.search(rf"{re.escape(folder)}\b", text) or workdirs[-1]["folder"] == folder:
            continue  # the image makes or names the folder: something else removed it
        workdir = workdirs[-1]
        moved[task] = (said, EvidenceLine(file=ev.rel(dockerfile), line=text.count("\n", 0, workdir.start()) + 1,
                                          text=workdir.group(0).strip()), folder)
    if not moved:
        return []
    task, (said, workdir_line, folder) = next(iter(moved.items()))
    workdir = workdir_line.text.split()[-1]
    return [Finding(
        category=DATA_SCHEMA,
        title=f"The image of {_names(moved)} works in {workdir} and has no {folder}, which its instruction and test "
              "use: every episode scored 0",
        evidence=[said, workdir_line],
        cause=f"The task's environment/Dockerfile sets `WORKDIR {workdir}` (a new image template) and never makes "
              f"{folder}, while instruction.md asks for files in {folder} and tests/test.sh looks there: the test "
              f"finds no {folder} in the sandbox and fails every episode, whatever the agent did. The task folder "
              "disagrees with itself; the model and the test's logic are not at fault.",
        fix=f"Make the task's files agree: in {run.task_path(task)}/environment/Dockerfile set `WORKDIR {folder}` "
            f"back (and COPY its files there), or move instruction.md and tests/test.sh to {workdir}; check it with "
            f"the oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must score 1), then {run.rerun()}.",
    )]


# ---------------------------------------------------------------------------------------------
# A task whose every episode ran out of agent time and scored 0: the sandbox or the budget is too small for it

SMALL_TASK_CPUS = 0.5  # a sandbox with less than half a CPU runs a task's commands many times slower


def rule_task_agent_timeouts(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    rows_of_task: dict[str, list[tuple[int, dict]]] = defaultdict(list)
    for number, row in run.rows:
        rows_of_task[str(row.get("task_id"))].append((number, row))
    timed_out = [task for task, rows in rows_of_task.items()
                 if all(row.get("agent_stop_reason") == "agent_timeout" and not row.get("reward") for _, row in rows)]
    if not timed_out:
        return []
    task = timed_out[0]
    number, row = rows_of_task[task][0]
    config = task_config(ev, run, task)
    cpus = config.environment.cpus if config else None
    budget = config.agent.timeout_sec if config else None
    starved = cpus is not None and cpus < SMALL_TASK_CPUS
    toml = f"{run.task_path(task)}/task.toml"
    return [Finding(
        category=THROUGHPUT_RESOURCES,
        title=f"Every episode of {_names(timed_out)} ran out of agent time and scored 0"
              + (f": its sandbox has cpus = {cpus:g}" if starved else ""),
        evidence=[_line(ev, ev.run_dir / ROLLOUTS_FILE, number, row, "agent_stop_reason", "reward")],
        cause=(f"The task gives its sandbox {cpus:g} CPU ([environment] cpus of task.toml): its commands run that many "
               "times slower than on one CPU, so the work cannot finish within the agent's budget"
               + (f" ([agent] timeout_sec = {budget:g} s)" if budget else "") + " and the verifier finds nothing."
               if starved else
               "The agent was stopped at its time budget"
               + (f" ([agent] timeout_sec = {budget:g} s)" if budget else "") + " in every episode of the task, "
               "before its work was done: the budget is too short for the task on this machine, or the sandbox too "
               "small for its work."),
        fix=(f"Give the sandbox whole CPUs: `cpus` in [environment] of {toml} (1 or more)" if starved else
             f"Raise the task's budget in the dataset (`timeout_multiplier` in [gym.defaults] of dataset.toml, or "
             f"`[gym.tasks.\"{task}\".agent] timeout_sec`), or its sandbox's `cpus` and `memory_mb` in {toml}")
            + f"; check the oracle passes (`gym-pipeline tasks validate {run.task_path(task)}`), then {run.rerun()}.",
    )]


# A task's test.sh writing the shell's exit status as the reward: 0 when the check passed, 1 when it failed

_EXIT_STATUS_AS_REWARD = re.compile(r"^\s*(?:echo|printf\s+\S+)\s+[\"']?\$\?[\"']?\s*>>?\s*\S*reward\.txt")


def rule_exit_status_written_as_reward(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    for task, test, lines in tests_of_unscored_tasks(ev, run):
        number, line = next(((n, text) for n, text in enumerate(lines, 1) if _EXIT_STATUS_AS_REWARD.match(text)),
                            (0, ""))
        if not number:
            continue
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} writes the shell's exit status as its reward (`{line.strip()}`): every "
                  "episode of it scored 0",
            evidence=[EvidenceLine(file=ev.rel(test), line=number, text=line.strip())],
            cause="`$?` is the last command's exit status: 0 when the check passed, 1 when it failed, the opposite "
                  f"of a reward. So {task} scores 0 whenever it is solved (and 1 when it is not): the model is not at "
                  "fault, the verifier is.",
            fix=f"In {run.task_path(task)}/tests/test.sh, write 1 when the check passes and 0 when it fails instead "
                "of `echo $?` (`if check; then echo 1; else echo 0; fi > /logs/verifier/reward.txt`); check it with the "
                f"oracle (`gym-pipeline tasks validate {run.task_path(task)}`, which must score 1), then "
                f"{run.rerun()}.",
        )]
    return []


# A task's test.sh writing the same reward on every branch: a failure branch pasted from the passing one

_CONSTANT_REWARD_WRITE = re.compile(r"^\s*(?:echo|printf)\s+[\"']?(?P<value>[\d.]+)[\"']?\s*>>?\s*\S*reward\.txt")
_SAYS_FAILED = re.compile(r"\bFAIL|\bfail(?:ed|ure)?\b|\bwrong\b|\bexpected\b", re.I)
MAX_STDOUTS = 20  # episodes' test-stdout.txt read for one task


def _rewards_of(run: TaskFolderRun) -> dict[str, list[float]]:
    rewards: dict[str, list[float]] = defaultdict(list)
    for _, row in run.rows:
        if isinstance(row.get("reward"), int | float):
            rewards[str(row.get("task_id"))].append(row["reward"])
    return rewards


def episode_output_line(ev: Evidence, task: str, says: Callable[[str], bool]) -> EvidenceLine | None:
    """The first line of the task's episodes' test-stdout.txt (at most MAX_STDOUTS of them) for which `says` holds."""
    for stdout in sorted((ev.run_dir / "rollouts_episodes" / task).glob(f"*/*/verifier/{TEST_STDOUT}"))[:MAX_STDOUTS]:
        try:
            lines = stdout.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, 1):
            if says(line):
                return EvidenceLine(file=ev.rel(stdout), line=number, text=line.strip())
    return None


def _failed_yet_scored(ev: Evidence, task: str) -> EvidenceLine | None:
    """A line of an episode's test-stdout.txt where the test says the task failed."""
    return episode_output_line(ev, task, lambda line: bool(_SAYS_FAILED.search(line)))


def rule_one_reward_on_every_branch(ev: Evidence) -> list[Finding]:
    run = task_folder_run(ev)
    if run is None:
        return []
    for task, rewards, test, lines in tests_of_scored_tasks(ev, run):
        writes = [(n, line, m["value"]) for n, line in enumerate(lines, 1) if (m := _CONSTANT_REWARD_WRITE.match(line))]
        values = {float(value) for _, _, value in writes}
        if len(writes) < 2 or len(values) != 1 or rewards != values:
            continue
        value = next(iter(values))
        said = _failed_yet_scored(ev, task) if value else None
        last = writes[-1]
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} writes reward {value:g} on every branch ({len(writes)} writes): every episode "
                  f"of it scored {value:g}, whatever the agent did",
            evidence=[*(EvidenceLine(file=ev.rel(test), line=n, text=line.strip()) for n, line, _ in writes[:2]),
                      *([said] if said else [])],
            cause=f"tests/test.sh of {task} writes `{value:g}` to reward.txt in each of its branches: the branch for a "
                  "failed check was copied from the passing one and kept its reward"
                  + (f", so an episode the test itself calls failed (`{said.text}`) scored {value:g}" if said else "")
                  + ". The profile's numbers for this task say nothing about the model.",
            fix=f"In {run.task_path(task)}/tests/test.sh, write {0 if value else 1} in the failure branch (line "
                f"{last[0]}: `{last[1].strip()}`, now `echo {value:g}`); check it with the oracle and with a wrong "
                f"answer (`gym-pipeline tasks validate {run.task_path(task)}`), then {run.rerun()}.",
        )]
    return []


_EXIT_TRAP_WRITE = re.compile(r"^\s*trap\s+(?P<q>[\"'])(?P<body>[^\"']*>\s*\S*reward\.(?:txt|json)[^\"']*)(?P=q)\s+"
                              r"(?:EXIT|0)\b")
_CONSTANT_IN_TRAP = re.compile(r"\becho\s+(?P<value>\d+(?:\.\d+)?)\s*>")


def rule_exit_trap_overwrites_the_reward(ev: Evidence) -> list[Finding]:
    """A test.sh with `trap 'echo 0 > /logs/verifier/reward.txt' EXIT` as a safety net: an EXIT trap runs whenever
    the shell ends, after a pass too, so the 0 overwrites the 1 the test just wrote, and the task never scores."""
    run = task_folder_run(ev)
    if run is None:
        return []
    for task, rewards, test, lines in tests_of_scored_tasks(ev, run):
        trap = next(((n, line.strip(), m) for n, line in enumerate(lines, 1) if (m := _EXIT_TRAP_WRITE.match(line))),
                    None)
        value = _CONSTANT_IN_TRAP.search(trap[2]["body"]) if trap else None
        if trap is None or value is None or rewards != {float(value["value"])}:
            continue
        number, line, _ = trap
        return [Finding(
            category=VERIFIER_RUNTIME,
            title=f"The test of {task} sets an EXIT trap that writes reward {value['value']} (line {number}): it runs "
                  f"after every test, so every episode of {task} scored {value['value']}",
            evidence=[EvidenceLine(file=ev.rel(test), line=number, text=line)],
            cause=f"tests/test.sh of {task} line {number} (`{line}`) is meant as a safety net for a test that fails "
                  "half-way, but bash runs an EXIT trap whenever the script ends, after a pass too: it overwrites the "
                  f"reward the test has just written, so every episode of {task} scored {value['value']} whatever the "
                  "agent did.",
            fix=f"In {run.task_path(task)}/tests/test.sh, write the fallback only when no reward was written: write "
                "it first, before the checks (`echo 0 > /logs/verifier/reward.txt` at the top, then the check "
                "overwrites it), or make the trap conditional (`trap '[ -s /logs/verifier/reward.txt ] || echo 0 > "
                f"/logs/verifier/reward.txt' EXIT`); check it with the oracle (`gym-pipeline tasks validate "
                f"{run.task_path(task)}`, which must score 1), then {run.rerun()}.",
        )]
    return []


_ADDED_BEFORE_KNOWN_PROBLEMS = {1: (("tasks_not_loadable", rule_tasks_not_loadable), ("no_sandbox", rule_no_sandbox)),
                                2: (("one_task_folder_run_as_the_taskset", rule_one_task_folder_run_as_the_taskset),),
                                5: (("backup_copies_run_as_tasks", rule_backup_copies_run_as_tasks),
                                    ("task_data_files_reformatted", rule_task_data_files_reformatted),
                                    ("task_image_without_the_tasks_folder", rule_task_image_without_the_tasks_folder)),
                                7: (("sandbox_commands_killed", rule_sandbox_commands_killed),
                    ("task_agent_timeouts", rule_task_agent_timeouts),
                    ("test_script_errors", rule_test_script_errors),
                    ("test_tool_refuses_in_every_episode", rule_test_tool_refuses_in_every_episode),
                    ("test_python_the_sandbox_cannot_parse", rule_test_python_the_sandbox_cannot_parse),
                    ("test_reads_its_files_elsewhere", rule_test_reads_its_files_elsewhere),
                    ("test_checks_unasked_paths", rule_test_checks_unasked_paths),
                    ("test_counts_over_several_files", rule_test_counts_over_several_files),
                    ("exit_status_written_as_reward", rule_exit_status_written_as_reward),
                    ("one_reward_on_every_branch", rule_one_reward_on_every_branch),
                    ("exit_trap_overwrites_the_reward", rule_exit_trap_overwrites_the_reward))}


def with_task_folder_rules(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """`rules` with the task-folder rules in place: replacing the generic rule that reads the same files, or (the
    ones no generic rule stands for) before their step's known problems, whose findings they then subsume."""
    result: list[Rule] = []
    for rule in rules:
        if rule.name == "known_problems":
            result += [Rule(rule.step, name, check) for name, check in _ADDED_BEFORE_KNOWN_PROBLEMS.get(rule.step, ())]
        if rule.name in _REPLACED:
            rule = Rule(rule.step, rule.name, _instead_of(rule.check, _REPLACED[rule.name]))
        elif rule.name == "verifier_failures":
            rule = Rule(rule.step, rule.name, _unless_all_explained(rule.check))
        result.append(rule)
    return tuple(result)
