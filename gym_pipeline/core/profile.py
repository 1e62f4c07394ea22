"""Reward profiler: what `gym eval profile` (NeMo Gym 0.7.0) computes, fast and in bounded memory.

Inputs are a run's `rollouts_materialized_inputs.jsonl` and `rollouts.jsonl`; outputs are the three
files Gym writes beside the rollouts: `<stem>_reward_profiling.jsonl` (one row per task),
`<stem>_agent_metrics.json` and `<stem>_repeat_level_metrics.json`, plus our reward analysis
(`reward_analysis.py`), computed in the same pass.

Gym's semantics (`nemo_gym/reward_profile.py`, `nemo_gym/cli/eval.py:reward_profile`, 0.7.0 source),
checked against real 0.7.0 output:

* Rows are joined on the rollout key `(_ng_task_index, _ng_rollout_index)`. A duplicate key in either
  file is an error; a rollout whose key is not in the materialized inputs is an error even with
  `allow_partial`; a materialized row without a rollout is an error unless `allow_partial`.
* Rollouts with a truthy `mask_sample` leave the quality statistics together with their materialized
  row. They still count as collected in the completion summary, `mask_sample` itself is never
  profiled, and agents that had something masked get `coverage/*` counts in the agent metrics.
* Agents: a materialized row runs on its `_ng_environment_server` stamp, else on its agent. Runs are
  labelled by agent name, or by run when one agent fronts several (Gym's `label_runs`). Agent and
  repeat-level metrics are per label; coverage is per `agent_ref.name`.
* One profile row per task; when a task ran under more than one label (Gym's fan-out), one row per
  (task, label), carrying `agent_ref`. Completion is counted per (task, run).
* Profiled fields: every top-level numeric field of a rollout plus every numeric field of
  `response.usage` (usage wins on a name clash, the key keeps its first position). Bools count as
  0/1; nested objects, strings and None are skipped (None counts as missing); underscore-prefixed
  fields are not profiled.
* `rollout_infos`: id, both indices, `reward`, every numeric usage field, then every other numeric
  top-level field (a top-level field overwrites a usage field of the same name in place).
* Per task and per agent: `mean/`, `max/`, `min/`, `median/`, `std/` (sample std, ddof=1) for each
  field, in first-seen field order over the rollouts sorted by key. A std that cannot be computed (a
  single value) is left out, except that when every std of the group is undefined, fully-present
  fields get 0.0 (Gym: "std is more interpretable as 0 than NaN").
* Repeat level (agents with more than one repeat): per (agent, repeat) and per field (sorted by name)
  mean/median/std/sem/min/max/p25/p75 (linear interpolation) and a Student-t 95% CI when n > 1.
  Across repeats, each per-repeat `mean/<f>` (Gym's primary metrics) is summarised into the agent
  metrics as `<stat>_across_repeats/mean/<f>` (mean, median, std, min, max, se, 95% CI).
  A standard error of exactly 0 collapses the CI to (mean, mean) and emits a UserWarning, as Gym does.

How: each file is split into byte ranges on line boundaries, parsed (orjson) in worker processes
when it is large, and every range comes back as compact arrays: per row its key, line, a few flags
and its profiled numbers; no parsed row outlives its line. Rows with the same keys and value types
share a layout worked out once; a row whose values need pydantic's verdict takes the exact (slow)
path, which also validates it. Agent and repeat statistics are vectorised over the rows sorted by
key. Profile rows are built in blocks while they are written (in parallel for large runs), each
task's statistics from its rollouts' columns and its `sample` re-read from its line in the
materialized inputs. Memory grows with the number of rollouts (a few hundred bytes each at the
peak), not with the size of the rows.

Where: this module runs the workers, joins the two files, labels agents and writes the outputs;
`profile_scan.py` parses a byte range and merges the ranges, `profile_stats.py` holds the
statistics and `profile_rows.py` builds the profile rows.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import shutil
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gym_pipeline.core import reward_analysis
from gym_pipeline.core.flakiness import read_flakiness
from gym_pipeline.core.formats import (
    JsonlFormatError,
    atomic_file,
    require_file,
    write_json_atomic,
    write_jsonl_atomic,
)
from gym_pipeline.core.manifest import PROFILE_STAGE
from gym_pipeline.core.profile_rows import TaskRows
from gym_pipeline.core.profile_scan import (
    BATCH_BYTES,
    DuplicateRolloutKeyError,
    Inputs,
    Results,
    RolloutKey,
    line_ranges,
    merge_inputs,
    merge_rollouts,
    profiled_values,
    rollout_info,
    scan_inputs,
    scan_rollouts,
)
from gym_pipeline.core.profile_stats import (
    STAT_NAMES,
    WarningLog,
    across_repeats,
    agent_metrics,
    coverage_by_agent,
    describe_groups,
    repeat_level_metrics,
    t_interval,
    t_quantile,
)
from gym_pipeline.core.run_lock import run_directory_lock

# Gym shows at most this many keys in its mismatch messages.
_KEYS_SHOWN = 10
_RANGE_BYTES = 16 << 20  # one unit of work for a worker process: small enough to keep both busy to the end
_PARALLEL_MIN_BYTES = 32 << 20  # smaller runs are scanned in this process: starting workers costs more
_PARALLEL_MIN_ROLLOUTS = 50_000  # the profile rows of smaller runs are written by this process
_MAX_WORKERS = 4  # beyond this, merging and writing dominate


# --------------------------------------------------------------------------------------------------
# Errors (and `DuplicateRolloutKeyError`, raised while the files are read)


class MissingRolloutsError(ValueError):
    """Strict profiling found materialized rows without a rollout result. The first line is Gym's message;
    the next names the rollouts file that lacks them."""

    def __init__(self, missing_keys: Sequence[RolloutKey], rollouts_path: Path | str | None = None):
        self.missing_keys: list[RolloutKey] = sorted(missing_keys)
        self.path = Path(rollouts_path) if rollouts_path is not None else None
        where = f"{self.path} lacks them. " if self.path is not None else ""
        super().__init__(
            "Materialized input rows and rollout results do not have matching rollout keys. "
            f"Missing rollout results for {len(self.missing_keys)} materialized input rows. "
            f"Missing rollout keys: {self.missing_keys[:_KEYS_SHOWN]}.\n\n"
            f"{where}Use --allow-partial (Gym: ++allow_partial_rollouts=True) to profile completed rollouts "
            "from a partial collection."
        )


class UnmatchedRolloutsError(JsonlFormatError):
    """Rollout results whose key has no materialized input row (Gym rejects these even when partial).

    A `JsonlFormatError` (so a `ValueError`) pointing at the first such line of the rollouts file.
    """

    def __init__(self, path: Path | str, extra: Sequence[tuple[RolloutKey, int]]):
        by_key = sorted(extra)
        self.extra_keys: list[RolloutKey] = [key for key, _ in by_key]
        self.lines: list[int] = sorted(line for _, line in extra)
        shown = ", ".join(f"line {line} {key}" for key, line in sorted(extra, key=lambda e: e[1])[:_KEYS_SHOWN])
        super().__init__(
            path,
            self.lines[0],
            None,
            "Rollout results contain rows with no matching materialized input rows. "
            f"Found {len(by_key)} extra rollout rows. Extra rollout keys: {self.extra_keys[:_KEYS_SHOWN]} ({shown}).",
        )


# --------------------------------------------------------------------------------------------------
# Reading a run: workers scan byte ranges of both files (see profile_scan)


def _default_workers() -> int:
    return min(os.cpu_count() or 1, _MAX_WORKERS)


def worker_context(preload: str = __name__) -> multiprocessing.context.BaseContext:
    """Fork while this process runs a single thread (fast, nothing re-imported). A process with several
    threads (a Dagster run) is unsafe to fork: workers then come from a fork server, which imports `preload`
    (this module: the scanners and TaskRows) once and, like spawn, re-imports the main module in each worker."""
    if threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([preload])
    return context


def _run_scans(jobs: list[tuple[Callable[..., Any], Path, int, int]], workers: int, strict: bool) -> list[Any]:
    if workers <= 1:
        return [scan(path, start, end, strict) for scan, path, start, end in jobs]
    with ProcessPoolExecutor(workers, mp_context=worker_context()) as pool:
        futures = [pool.submit(scan, path, start, end, strict) for scan, path, start, end in jobs]
        return [future.result() for future in futures]


def _read_run(inputs_path: Path, rollouts_path: Path, workers: int | None, strict: bool) -> tuple[Inputs, Results]:
    """Both files as arrays; errors are raised in the order a line-by-line reader meets them."""
    require_file(inputs_path)
    rollouts_exist = rollouts_path.is_file()
    sizes = (inputs_path.stat().st_size, rollouts_path.stat().st_size if rollouts_exist else 0)
    if workers is None:
        workers = 1 if sum(sizes) < _PARALLEL_MIN_BYTES else _default_workers()

    def ranges(path: Path, size: int) -> list[tuple[int, int]]:
        return line_ranges(path, 1 if workers <= 1 else max(workers, math.ceil(size / _RANGE_BYTES)))

    jobs: list[tuple[Callable[..., Any], Path, int, int]] = [
        (scan_inputs, inputs_path, start, end) for start, end in ranges(inputs_path, sizes[0])
    ]
    input_jobs = len(jobs)
    if rollouts_exist:
        jobs += [(scan_rollouts, rollouts_path, start, end) for start, end in ranges(rollouts_path, sizes[1])]
    chunks = _run_scans(jobs, workers, strict)
    input_chunks, rollout_chunks = chunks[:input_jobs], chunks[input_jobs:]
    del chunks  # each file's chunks go as soon as they are merged
    inputs = merge_inputs(inputs_path, input_chunks)
    del input_chunks
    require_file(rollouts_path)  # checked after the inputs are read: a bad inputs line is reported first
    return inputs, merge_rollouts(rollouts_path, rollout_chunks)


# --------------------------------------------------------------------------------------------------
# Joining the files and labelling agents as Gym does


def _join(inputs: Inputs, results: Results, rollouts_path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per rollout row its materialized row; per materialized row whether it has a result, and its
    task's rank (which sorts like the task). Rollouts without a materialized row are an error."""
    tasks = np.unique(np.concatenate([inputs.task, results.task]))
    repeats = np.unique(np.concatenate([inputs.rollout, results.rollout]))
    input_task = np.searchsorted(tasks, inputs.task)
    # Codes number the keys in sorted order: code order is key order.
    input_codes = (input_task * len(repeats) + np.searchsorted(repeats, inputs.rollout))[inputs.order]
    result_codes = np.searchsorted(tasks, results.task) * len(repeats) + np.searchsorted(repeats, results.rollout)
    del tasks, repeats
    at = np.searchsorted(input_codes, result_codes).clip(max=max(len(input_codes) - 1, 0))
    matched = input_codes[at] == result_codes if len(input_codes) else np.zeros(len(result_codes), dtype=bool)
    if not matched.all():
        raise UnmatchedRolloutsError(rollouts_path, [
            ((int(results.task[i]), int(results.rollout[i])), int(results.line[i])) for i in np.flatnonzero(~matched)
        ])
    input_of = inputs.order[at]
    has_result = np.zeros(len(inputs.task), dtype=bool)
    has_result[input_of] = True
    return input_of, has_result, input_task


@dataclass
class _Agents:
    """Gym's agents: run labels, and the profile groups they imply."""

    labels: list[str]  # sorted
    label: np.ndarray  # per materialized row: its label id
    per_agent: bool  # some task ran under several labels: a profile row per (task, label)
    group: np.ndarray  # per materialized row: its profile row's code (codes sort like the rows)


def _agents(inputs: Inputs, input_task: np.ndarray, unmasked: np.ndarray) -> _Agents:
    """Labels as Gym gives them from the materialized rows that are not masked, in file order."""
    agent_by_key: dict[str, str] = {}
    runs, first_row = np.unique(inputs.run[unmasked], return_index=True)
    for run in runs[np.argsort(first_row)]:
        agent_by_key.setdefault(*inputs.runs[run])
    run_labels = _label_runs(agent_by_key)
    # A run seen only on masked rows profiles nothing; its agent name labels it in the analysis.
    label_of_run, labels = _ids([run_labels.get(key, agent) for key, agent in inputs.runs])
    label = label_of_run[inputs.run]
    with_label = input_task * max(len(labels), 1) + label
    per_agent = len(np.unique(with_label[unmasked])) > len(np.unique(input_task[unmasked]))
    return _Agents(labels, label, per_agent, with_label if per_agent else input_task)


def _label_runs(agent_by_key: dict[str, str | None]) -> dict[str, str]:
    """Gym's `label_runs`: a run keeps its agent's name when that agent has one run, else (or without an
    agent, as a taskset's environment server) its own key; labels that would still repeat fall back to the key."""
    runs_of = Counter(agent_by_key.values())
    labels = {key: agent if agent is not None and runs_of[agent] == 1 else key for key, agent in agent_by_key.items()}
    while True:
        counts = Counter(labels.values())
        clashing = [key for key, label in labels.items() if counts[label] > 1 and label != key]
        if not clashing:
            return labels
        for key in clashing:
            labels[key] = key


def _ids(values: Sequence[Any]) -> tuple[np.ndarray, list[Any]]:
    """Ids that sort like the values (None first), and the distinct values by id."""
    distinct = sorted(set(values), key=lambda value: (value is not None, value))
    position = {value: i for i, value in enumerate(distinct)}
    return np.array([position[value] for value in values], dtype=np.int64), distinct


def _columns(results: Results, rows: np.ndarray) -> tuple[list[str], list[np.ndarray], bool]:
    """The profiled fields over `rows`: names in first-seen order, one column each (NaN: no value), and
    whether every row holds an integer in every column (pandas' int64 columns, in Gym's DataFrame)."""
    layout, start = results.layout[rows], results.value_start[rows]
    distinct, first = np.unique(layout, return_index=True)
    index: dict[str, int] = {}
    for layout_id in distinct[np.argsort(first)]:
        for name in results.layouts[layout_id].names:
            index.setdefault(name, len(index))
    all_integer = bool(len(rows)) and all(
        len(results.layouts[layout_id].names) == len(index) and not any(results.layouts[layout_id].floats)
        for layout_id in distinct.tolist())
    columns = [np.full(len(rows), np.nan) for _ in index]
    for layout_id in distinct:
        at = np.flatnonzero(layout == layout_id)
        for position, name in enumerate(results.layouts[layout_id].names):
            columns[index[name]][at] = results.values[start[at] + position]
    return list(index), columns, all_integer


def _task_rows(inputs_path: Path, inputs: Inputs, results: Results, agents: _Agents, input_of: np.ndarray,
               unmasked: np.ndarray, measured: np.ndarray, names: list[str], columns: list[np.ndarray],
               all_integer: bool) -> TaskRows:
    measured_input = input_of[measured]
    group = agents.group[measured_input]
    starts = np.flatnonzero(np.diff(group, prepend=-1))
    expected_groups, expected_counts = np.unique(agents.group[unmasked], return_counts=True)
    first_input = measured_input[starts]

    # How the rollout_infos entries of each layout in use read the columns.
    index = {name: i for i, name in enumerate(names)}
    specs: list[list[tuple[str, int, bool]] | None] = [None] * len(results.layouts)
    for layout_id in np.unique(results.layout[measured]).tolist():
        layout = results.layouts[layout_id]
        if layout.info is not None:
            specs[layout_id] = [(layout.names[p], index[layout.names[p]], layout.floats[p]) for p in layout.info]
    irregular = np.flatnonzero(np.isin(measured, np.fromiter(results.infos, dtype=np.int64)))
    return TaskRows(
        inputs_path=inputs_path,
        task=results.task[measured[starts]],
        agent=[agents.labels[i] for i in agents.label[first_input].tolist()] if agents.per_agent else None,
        names=names,
        expected=expected_counts[np.searchsorted(expected_groups, group[starts])],
        sample_offset=inputs.offset[first_input],
        sample_length=inputs.length[first_input],
        starts=starts,
        repeat=results.rollout[measured],
        layout=results.layout[measured],
        infos={int(j): results.infos[int(measured[j])] for j in irregular},
        info_specs=specs,
        columns=columns,
        all_integer=all_integer,
    )


def _completion(inputs: Inputs, input_task: np.ndarray, has_result: np.ndarray) -> tuple[int, int, int, int]:
    """(total, complete, partial, dropped) over Gym's completion groups: the (task, run) of every
    materialized row, masked or not."""
    key_of_run, _ = _ids([key for key, _ in inputs.runs])
    code = input_task * max(len(inputs.runs), 1) + key_of_run[inputs.run]
    groups, expected = np.unique(code, return_counts=True)
    completed = np.bincount(np.searchsorted(groups, code[has_result]), minlength=len(groups))
    return (len(groups), int(np.count_nonzero(completed == expected)),
            int(np.count_nonzero((completed > 0) & (completed < expected))), int(np.count_nonzero(completed == 0)))


# --------------------------------------------------------------------------------------------------
# Result and entry points


@dataclass
class ProfileResult:
    task_rows: TaskRows
    agent_metrics: list[dict[str, Any]]
    repeat_level_metrics: list[dict[str, Any]]
    analysis: reward_analysis.RewardAnalysis
    expected_rollouts: int
    completed_rollouts: int
    tasks_total: int
    tasks_complete: int
    tasks_partial: int
    tasks_dropped: int
    masked_rollouts: int
    missing_keys: list[RolloutKey] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # Gym's statistics warnings
    tolerated: list[str] = field(default_factory=list)  # deviations from our row models read as Gym reads them

    @property
    def completion_pct(self) -> float:
        if self.expected_rollouts == 0:
            return 100.0
        return 100.0 * self.completed_rollouts / self.expected_rollouts


def profile_run(materialized_inputs: Path, rollouts: Path, allow_partial: bool = False, *,
                workers: int | None = None, strict: bool = False) -> ProfileResult:
    """Profile one run the way `gym eval profile` does; see the module docstring for the rules.

    `workers`: processes scanning the files (default: this process for small runs, else one per CPU,
    at most 4). The outputs do not depend on it. `strict`: refuse any row our row models refuse (for the
    files our own pipeline writes); otherwise such rows are read as Gym reads them, with a warning each.
    """
    inputs_path, rollouts_path = Path(materialized_inputs), Path(rollouts)
    inputs, results = _read_run(inputs_path, rollouts_path, workers, strict)
    input_of, has_result, input_task = _join(inputs, results, rollouts_path)
    missing_rows = inputs.order[~has_result[inputs.order]]
    missing = list(zip(inputs.task[missing_rows].tolist(), inputs.rollout[missing_rows].tolist(), strict=True))
    if missing and not allow_partial:
        raise MissingRolloutsError(missing, rollouts_path)

    masked = results.masked  # rollouts are in key order from here on
    unmasked = np.ones(len(inputs.task), dtype=bool)
    unmasked[input_of[masked]] = False
    agents = _agents(inputs, input_task, unmasked)
    measured = np.flatnonzero(~masked)
    if agents.per_agent:  # rows per (task, label), rollouts in key order within each
        measured = measured[np.argsort(agents.group[input_of[measured]], kind="stable")]
    names, columns, all_integer = _columns(results, measured)
    measured_label = agents.label[input_of[measured]]

    log = WarningLog()
    repeat_level = repeat_level_metrics(dict(zip(names, columns, strict=True)), measured_label, agents.labels,
                                        results.task[measured], results.rollout[measured], log)
    agent_of_run, agent_names = _ids([agent for _, agent in inputs.runs])
    coverage = coverage_by_agent(agent_of_run[inputs.run[input_of]], agent_names, results.task, masked)
    agent_entries = agent_metrics(names, columns, measured_label, agents.labels, across_repeats(repeat_level, log),
                                  coverage, all_integer)
    total, complete, partial, dropped = _completion(inputs, input_task, has_result)
    analysis = reward_analysis.analyze(
        task=results.task,
        rollout=results.rollout,
        agent=agents.label[input_of],
        agents=agents.labels,
        per_agent=agents.per_agent,
        reward=results.reward,
        output_tokens=results.output_tokens,
        cut_off=results.cut_off,
        masked=masked,
        num_repeats=int(np.unique(agents.group, return_counts=True)[1].max(initial=0)),
    )
    flakiness = read_flakiness(rollouts_path)
    if flakiness is not None:  # `reverify --repeat N` measured these very rollouts
        analysis.summary["verifier_flakiness"] = flakiness.summary()
    return ProfileResult(
        task_rows=_task_rows(inputs_path, inputs, results, agents, input_of, unmasked, measured, names, columns,
                             all_integer),
        agent_metrics=agent_entries,
        repeat_level_metrics=repeat_level,
        analysis=analysis,
        expected_rollouts=len(inputs.task),
        completed_rollouts=len(results.task),
        tasks_total=total,
        tasks_complete=complete,
        tasks_partial=partial,
        tasks_dropped=dropped,
        masked_rollouts=int(np.count_nonzero(masked)),
        missing_keys=missing,
        warnings=log.messages,
        tolerated=[*inputs.tolerated, *results.tolerated],
    )


def output_paths(rollouts_path: Path, output_dir: Path | None = None) -> dict[str, Path]:
    rollouts_path = Path(rollouts_path)
    folder = Path(output_dir) if output_dir is not None else rollouts_path.parent
    stem = rollouts_path.stem
    return {
        "reward_profiling": folder / f"{stem}_reward_profiling.jsonl",
        "agent_metrics": folder / f"{stem}_agent_metrics.json",
        "repeat_level_metrics": folder / f"{stem}_repeat_level_metrics.json",
        "reward_analysis": folder / f"{stem}_reward_analysis.parquet",
        "reward_analysis_summary": folder / f"{stem}_reward_analysis.json",
    }


@contextmanager
def _rows_written(path: Path, rows: TaskRows, workers: int) -> Iterator[None]:
    """The profile rows as JSONL, written atomically by the end of the `with` block. With workers, each
    writes a contiguous part of the rows to a file of its own while the block runs in this process;
    the parts are then joined in order."""
    if workers <= 1:
        yield
        write_jsonl_atomic(path, rows)
        return
    cuts = np.linspace(0, len(rows), workers + 1).astype(int).tolist()
    parts = [path.with_name(f".{path.name}.{os.getpid()}.part{i}") for i in range(workers)]
    try:
        with ProcessPoolExecutor(workers, mp_context=worker_context()) as pool:
            futures = [pool.submit(write_jsonl_atomic, part, rows.part(first, last))
                       for part, first, last in zip(parts, cuts, cuts[1:], strict=False)]
            yield
            for future in futures:
                future.result()
        with atomic_file(path) as temporary, temporary.open("wb") as joined:
            for part in parts:
                with part.open("rb") as handle:
                    shutil.copyfileobj(handle, joined, BATCH_BYTES)
            joined.flush()
            os.fsync(joined.fileno())
    finally:
        for leftover in parts:
            leftover.unlink(missing_ok=True)


def write_profile(result: ProfileResult, rollouts_path: Path, output_dir: Path | None = None, *,
                  workers: int | None = None) -> dict[str, Path]:
    """Write Gym's three profile files (compact orjson, like Gym) and the reward analysis (Parquet + JSON
    summary), each atomically, holding the output folder's lock; return their paths.

    `workers`: processes building the profile rows (default: this process for small runs, else one per
    CPU, at most 4). The files do not depend on it.
    """
    paths = output_paths(rollouts_path, output_dir)
    if workers is None:
        workers = 1 if len(result.task_rows.repeat) < _PARALLEL_MIN_ROLLOUTS else _default_workers()
    with (run_directory_lock(paths["reward_profiling"].parent, PROFILE_STAGE),
          _rows_written(paths["reward_profiling"], result.task_rows, workers)):
        write_json_atomic(paths["agent_metrics"], result.agent_metrics)
        write_json_atomic(paths["repeat_level_metrics"], result.repeat_level_metrics)
        reward_analysis.write_analysis(result.analysis, paths["reward_analysis"], paths["reward_analysis_summary"])
    return paths


def summary_lines(result: ProfileResult, paths: dict[str, Path] | None = None) -> list[str]:
    """Gym's printed completion summary; with `paths`, also its output lines and ours."""
    lines = [
        f"Reward profile completion: {result.completed_rollouts}/{result.expected_rollouts} rollout rows "
        f"({result.completion_pct:.2f}%)",
        f"Input rows: {result.tasks_total} total; {result.tasks_complete} complete; {result.tasks_partial} "
        f"partial; {result.tasks_dropped} without rollouts dropped from output.",
        f"Masked from quality metrics: {result.masked_rollouts} rollout rows (kept in completion accounting above).",
    ]
    if paths:
        lines += [
            f"Reward profiling outputs: {paths['reward_profiling']}",
            f"Agent-level metrics: {paths['agent_metrics']}",
            f"Repeat-level metrics: {paths['repeat_level_metrics']}",
        ]
        if "reward_analysis" in paths:
            lines += [
                f"Reward analysis: {paths['reward_analysis']}",
                f"Reward analysis summary: {paths['reward_analysis_summary']}",
            ]
    return lines


__all__ = [
    "STAT_NAMES",
    "DuplicateRolloutKeyError",
    "MissingRolloutsError",
    "ProfileResult",
    "TaskRows",
    "UnmatchedRolloutsError",
    "describe_groups",
    "output_paths",
    "profile_run",
    "profiled_values",
    "rollout_info",
    "summary_lines",
    "t_interval",
    "t_quantile",
    "write_profile",
]
