"""Backfills that start at once: ranged sweep runs launched without Dagster's backfill daemon.

A backfill launched from the UI waits for Dagster's backfill daemon, which wakes every
30 s (a fixed constant in dagster 1.13): about 45 s of latency per backfill however
little work it holds. `gym-pipeline backfill` plans the runs the backfill policy would
(contiguous ranges of the partitions definition's key order, at most
`backfill_batch_size` partitions each, so one run's start-up serves many partitions)
and either submits them to a running webserver, whose run queue picks them up within
a second, or runs them in this process. Either way the runs, their partitions and
their materializations land in the workspace's Dagster instance and show in the UI,
tagged with one backfill id.
"""

from __future__ import annotations

import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit

import dagster as dg

from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partitions
from gym_pipeline.backfill_errors import BackfillError
from gym_pipeline.config import SweepConfig

BACKFILL_TAG = "gym_pipeline/backfill"
RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"
_FINISHED = {dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED}


@dataclass(frozen=True)
class PartitionRange:
    """Consecutive partition keys ("checkpoint|env") that one run materializes."""

    keys: tuple[str, ...]

    def tags(self, backfill_id: str) -> dict[str, str]:
        return {RANGE_START_TAG: self.keys[0], RANGE_END_TAG: self.keys[-1], BACKFILL_TAG: backfill_id}


@dataclass
class RangeOutcome:
    partition_range: PartitionRange
    run_id: str
    status: dg.DagsterRunStatus

    @property
    def succeeded(self) -> bool:
        return self.status == dg.DagsterRunStatus.SUCCESS


def new_backfill_id() -> str:
    return f"gp-{uuid.uuid4().hex[:8]}"


def select_partitions(config: SweepConfig, instance: dg.DagsterInstance, checkpoints: list[str] | None,
                      envs: list[str] | None) -> list[str]:
    """The chosen partition keys in the partitions definition's own order (default: every registered one)."""
    registered = instance.get_dynamic_partitions(CHECKPOINTS.name)
    known_envs = [environment.name for environment in config.environments]
    for wanted, known, what in ((checkpoints, registered, "checkpoint"), (envs, known_envs, "environment")):
        unknown = sorted(set(wanted or ()) - set(known))
        if unknown:
            listing = ", ".join(known) or "none yet: run `gym-pipeline demo` or start the UI's sensor"
            raise BackfillError(f"unknown {what} {', '.join(unknown)}; registered: {listing}")
    keys = sweep_partitions(config).get_partition_keys(dynamic_partitions_store=instance)
    chosen = [key for key in keys
              if (not checkpoints or key.keys_by_dimension["checkpoint"] in checkpoints)
              and (not envs or key.keys_by_dimension["env"] in envs)]
    if not chosen:
        raise BackfillError("no partition to backfill: no checkpoint is registered in this workspace yet")
    return [str(key) for key in chosen]


def plan_ranges(ordered_keys: list[str], chosen: list[str], batch_size: int) -> list[PartitionRange]:
    """Cut the chosen keys into runs: each a contiguous stretch of `ordered_keys`, at most `batch_size` long.

    A range tag names only its two ends, so a run may hold only keys with nothing unchosen in between.
    """
    if batch_size < 1:
        raise BackfillError(f"batch size must be at least 1, got {batch_size}")
    chosen_set = set(chosen)
    ranges: list[PartitionRange] = []
    current: list[str] = []
    for key in ordered_keys:
        if key in chosen_set:
            current.append(key)
            if len(current) == batch_size:
                ranges.append(PartitionRange(tuple(current)))
                current = []
        elif current:
            ranges.append(PartitionRange(tuple(current)))
            current = []
    if current:
        ranges.append(PartitionRange(tuple(current)))
    return ranges


def run_in_process(defs: dg.Definitions, instance: dg.DagsterInstance, job_name: str,
                   ranges: list[PartitionRange], backfill_id: str, run_config: dict | None = None
                   ) -> Iterator[RangeOutcome]:
    """Execute each range as one run of `job_name` in this process, one after the other."""
    job = defs.resolve_job_def(job_name)
    for partition_range in ranges:
        result = job.execute_in_process(instance=instance, run_config=run_config or {},
                                        tags=partition_range.tags(backfill_id), raise_on_error=False)
        yield RangeOutcome(partition_range, result.run_id, result.dagster_run.status)


class WebserverBackfill:
    """Ranged runs submitted to a running webserver: they queue at once and the run queue starts them."""

    def __init__(self, ui_url: str, job_name: str, ranges: list[PartitionRange], backfill_id: str):
        from dagster_graphql import DagsterGraphQLClient

        parts = urlsplit(ui_url if "://" in ui_url else f"http://{ui_url}")
        if not parts.hostname:
            raise BackfillError(f"--ui-url {ui_url!r} is not a URL like http://127.0.0.1:3000")
        _ensure_webserver_answers(parts.geturl())
        self.ui_url = ui_url
        self.client = DagsterGraphQLClient(parts.hostname, port_number=parts.port, use_https=parts.scheme == "https",
                                           path_prefix=parts.path.rstrip("/"), timeout=60)
        self.pending: dict[str, PartitionRange] = {}
        with self._clear_errors():
            for partition_range in ranges:
                run_id = self.client.submit_job_execution(job_name, tags=partition_range.tags(backfill_id))
                self.pending[run_id] = partition_range

    def outcomes(self, poll_interval_s: float = 0.5) -> Iterator[RangeOutcome]:
        """Each run's outcome as it finishes."""
        with self._clear_errors():
            while self.pending:
                for run_id in list(self.pending):
                    status = self.client.get_run_status(run_id)
                    if status in _FINISHED:
                        yield RangeOutcome(self.pending.pop(run_id), run_id, status)
                if self.pending:
                    time.sleep(poll_interval_s)

    @contextmanager
    def _clear_errors(self) -> Iterator[None]:
        from dagster_graphql import DagsterGraphQLClientError

        try:
            yield
        except DagsterGraphQLClientError as error:
            # The client's message repeats the whole query: its first line and the server's answer say what failed.
            detail = " ".join(filter(None, [str(error).splitlines()[0], str(error.body or "")]))
            raise BackfillError(f"the Dagster webserver at {self.ui_url} refused the backfill: {detail}") from None


def _ensure_webserver_answers(base_url: str) -> None:
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + "/server_info", timeout=10):
            pass
    except OSError as error:
        raise BackfillError(f"no Dagster webserver answers at {base_url} ({error}); start one with "
                            "`gym-pipeline ui`, or leave out --ui-url to run in this process") from None


@dataclass
class BackfillPlan:
    backfill_id: str
    job_name: str
    ranges: list[PartitionRange]

    @property
    def partition_count(self) -> int:
        return sum(len(partition_range.keys) for partition_range in self.ranges)


def plan_backfill(config: SweepConfig, instance: dg.DagsterInstance, job_name: str, checkpoints: list[str] | None,
                  envs: list[str] | None, batch_size: int | None) -> BackfillPlan:
    ordered = [str(key) for key in sweep_partitions(config).get_partition_keys(dynamic_partitions_store=instance)]
    chosen = select_partitions(config, instance, checkpoints, envs)
    ranges = plan_ranges(ordered, chosen, batch_size or config.backfill_batch_size)
    return BackfillPlan(new_backfill_id(), job_name, ranges)
