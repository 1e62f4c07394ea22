"""`TaskRows`: the rows of `<stem>_reward_profiling.jsonl`, built a block at a time while they are written.

Each row's statistics come from its rollouts' columns (`describe_groups`), its `rollout_infos` from
the row layouts the scan recorded, and its `sample` is re-read from its line in the materialized inputs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson

from gym_pipeline.core.formats import AGENT_REF, ROLLOUT_INDEX, TASK_INDEX
from gym_pipeline.core.profile_stats import describe_groups

_ROWS_PER_BLOCK = 1024  # profile rows whose rollout_infos are built together


@dataclass
class TaskRows:
    """The rows of `<stem>_reward_profiling.jsonl`, built on demand from compact arrays.

    Iterate to stream them (each pass re-reads the `sample` lines from the materialized inputs);
    `len()` is the number of rows.
    """

    inputs_path: Path
    task: np.ndarray  # per row (group)
    agent: list[str] | None  # per row: the agent label, when rows are per (task, agent)
    names: list[str]  # the profiled fields, in Gym's column order
    expected: np.ndarray  # per row
    sample_offset: np.ndarray  # per row: its sample's line in the materialized inputs
    sample_length: np.ndarray
    starts: np.ndarray  # per row: its first measured rollout; rollouts are in row order
    repeat: np.ndarray  # per measured rollout
    layout: np.ndarray
    infos: dict[int, bytes]  # measured rollout -> rollout_infos entry, for rollouts off the fast path
    info_specs: list[list[tuple[str, int, bool]] | None]  # by layout: (name, column, is float) in info order
    columns: list[np.ndarray]  # per measured rollout, each profiled field (NaN: no value)
    all_integer: bool  # every measured rollout holds an integer in every column (see describe_groups)

    def __len__(self) -> int:
        return len(self.task)

    def part(self, first: int, last: int) -> TaskRows:
        """Rows [first, last) on their own (what a writer process is sent)."""
        start, end = np.append(self.starts, len(self.repeat))[[first, last]].tolist()
        return TaskRows(
            inputs_path=self.inputs_path,
            task=self.task[first:last],
            agent=None if self.agent is None else self.agent[first:last],
            names=self.names,
            expected=self.expected[first:last],
            sample_offset=self.sample_offset[first:last],
            sample_length=self.sample_length[first:last],
            starts=self.starts[first:last] - start,
            repeat=self.repeat[start:end],
            layout=self.layout[start:end],
            infos={j - start: info for j, info in self.infos.items() if start <= j < end},
            info_specs=self.info_specs,
            columns=[column[start:end] for column in self.columns],
            all_integer=self.all_integer,
        )

    def __iter__(self) -> Iterator[dict[str, Any]]:
        bounds = np.append(self.starts, len(self.repeat))
        with self.inputs_path.open("rb") as handle:
            for first in range(0, len(self.task), _ROWS_PER_BLOCK):
                last = min(first + _ROWS_PER_BLOCK, len(self.task))
                yield from self._block(handle, first, last, bounds)

    def _block(self, handle: Any, first: int, last: int, bounds: np.ndarray) -> Iterator[dict[str, Any]]:
        """Rows [first, last): their rollout_infos are built together, which is much cheaper per rollout."""
        start, stop = int(bounds[first]), int(bounds[last])
        infos = self._rollout_infos(np.repeat(self.task[first:last], np.diff(bounds[first:last + 1])), start, stop)
        stats = describe_groups(self.names, [column[start:stop] for column in self.columns],
                                self.starts[first:last] - start, self.all_integer)
        offsets = (bounds[first:last + 1] - start).tolist()  # each row's rollouts within the block
        for i, (task, expected) in enumerate(zip(self.task[first:last].tolist(), self.expected[first:last].tolist(),
                                                 strict=True)):
            begin, end = offsets[i], offsets[i + 1]
            row: dict[str, Any] = {TASK_INDEX: task}
            for key, values in stats:
                if values[i] is not None:
                    row[key] = values[i]
            if self.agent is not None:
                row[AGENT_REF] = {"name": self.agent[first + i]}
            row["sample"] = self._sample(handle, first + i, task)
            num = end - begin
            row["num_rollouts"] = num
            row["expected_num_rollouts"] = expected
            row["missing_num_rollouts"] = expected - num
            row["reward_profile_completion_pct"] = 100.0 if expected == 0 else 100.0 * num / expected
            row["rollout_infos"] = infos[begin:end]
            yield row

    def _sample(self, handle: Any, i: int, task: int) -> dict[str, Any]:
        handle.seek(int(self.sample_offset[i]))
        sample = orjson.loads(handle.read(int(self.sample_length[i])))
        if sample.get(TASK_INDEX) != task:
            raise RuntimeError(f"{self.inputs_path} changed while it was being profiled")
        sample.pop(TASK_INDEX, None)
        sample.pop(ROLLOUT_INDEX, None)
        return sample

    def _rollout_infos(self, tasks: np.ndarray, start: int, end: int) -> list[dict[str, Any]]:
        """The rollout_infos entries of measured rollouts [start, end), whose tasks are `tasks`."""
        infos: list[Any] = [None] * (end - start)
        layouts = self.layout[start:end]
        for layout in np.unique(layouts).tolist():
            at = np.flatnonzero(layouts == layout)
            spec = self.info_specs[layout]
            if spec is None:
                for j in at.tolist():
                    infos[j] = orjson.loads(self.infos[start + j])
                continue
            task, repeat = tasks[at].tolist(), self.repeat[start:end][at].tolist()
            columns = [self.columns[column][start:end][at] for _, column, _ in spec]
            columns = [(c if is_float else c.astype(np.int64)).tolist() for c, (_, _, is_float) in zip(
                columns, spec, strict=True)]
            keys = ("rollout_id", TASK_INDEX, ROLLOUT_INDEX, *(name for name, _, _ in spec))
            ids = [f"{t}:{r}" for t, r in zip(task, repeat, strict=True)]
            # dict(zip(...)) keeps Gym's overwrite-in-place for a field that repeats a key (say `rollout_id`).
            for j, values in zip(at.tolist(), zip(ids, task, repeat, *columns, strict=True), strict=True):
                infos[j] = dict(zip(keys, values, strict=True))
        return infos
