"""A partition's stages as plain functions: run inside the Dagster step, or launched as `gym-pipeline stage`.

Each function does one stage of one (checkpoint, env) partition, holding the run directory's lock, and
returns a `PartitionOutcome`: the metadata to attach to that partition and a digest of what it wrote.
The assets call them directly when a stage runs in the step's process; when the sweep config sends a
stage to a launcher (a local process, a Docker container, a Slurm job), the launched
`gym-pipeline stage ...` command calls the same function inside a Dagster Pipes session: its log lines
reach the run's log as they happen, and the outcome comes back as a Pipes message.

No Dagster here: a launched stage process loads only what its stage needs. Metadata values are plain
(str, int, float, bool, None) or typed the way Dagster Pipes carries them (`{"raw_value": ..., "type":
"path" | "md" | "text"}`, made by `path_value` and `markdown_value`); the assets turn them into Dagster's.
"""

from __future__ import annotations

import asyncio
import json
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from gym_pipeline import diagnose as diagnosis
from gym_pipeline.config import SweepConfig
from gym_pipeline.core import materialize, plots, profile, reward_analysis
from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import (
    DIAGNOSIS_FILE,
    FAILURES_FILE,
    MATERIALIZED_INPUTS_FILE,
    REWARD_PROFILE_FILE,
    ROLLOUTS_FILE,
)
from gym_pipeline.core.manifest import COLLECTING, PROFILE_STAGE, ROLLOUTS_STAGE, read_manifest, record_stage
from gym_pipeline.core.run_lock import run_directory_lock
from gym_pipeline.diagnose.report import DIAGNOSIS_STAGE
from gym_pipeline.engines.builtin import CollectionProgress, CollectorSettings, collect
from gym_pipeline.engines.gym_rescoring import GymRescoringSettings, rescore_run_with_gym
from gym_pipeline.engines.nemo_gym import ENGINE as NEMO_GYM_ENGINE
from gym_pipeline.engines.nemo_gym import collect_with_nemo_gym
from gym_pipeline.engines.rescoring import RescoringSummary, rescore_run
from gym_pipeline.serving.servers import Endpoint
from gym_pipeline.taskfolders.stage_collect import collect_taskset_partition
from gym_pipeline.taskfolders.stage_materialize import materialize_taskset_partition
from gym_pipeline.verifiers import verifier_record

# The sweep config's `launchers` keys, and the stage names the manifest, the lock and the launcher records use.
STAGE_OF_LAUNCHER_KEY = {
    "materialize": materialize.MATERIALIZED_INPUTS_STAGE,
    "collect": ROLLOUTS_STAGE,
    "profile": PROFILE_STAGE,
}
# What a diagnosis read, fingerprinted in its manifest record.
DIAGNOSED_FILES = (MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE, FAILURES_FILE, REWARD_PROFILE_FILE)


class StageLog(Protocol):
    """Dagster's `context.log` in a step, a `logging.Logger` in a launched stage."""

    def info(self, msg: str) -> Any: ...

    def warning(self, msg: str) -> Any: ...


@dataclass
class PartitionOutcome:
    metadata: dict = field(default_factory=dict)
    digest: str | None = None  # content fingerprint of the partition's output


@dataclass
class DiagnosedPartition(PartitionOutcome):
    healthy: bool = True
    headline: str = ""  # the top cause's title, for the asset's check


def path_value(path: Path) -> dict[str, str]:
    """A path as metadata (Dagster Pipes' typed value: the UI shows it as a path)."""
    return {"raw_value": str(path), "type": "path"}


def markdown_value(text: str) -> dict[str, str]:
    """Markdown as metadata (Dagster Pipes' typed value: the UI renders it)."""
    return {"raw_value": text, "type": "md"}


def serialize_outcome(outcome: PartitionOutcome) -> str:
    """A launched stage's outcome as JSON for the Dagster step that launched it (NaN becomes null)."""
    metadata = {key: None if isinstance(value, float) and not math.isfinite(value) else value
                for key, value in outcome.metadata.items()}
    return json.dumps({"metadata": metadata, "digest": outcome.digest}, default=_plain)


def _plain(value: Any) -> Any:
    """A numpy number as Python's; anything else JSON does not know as its text."""
    return value.item() if hasattr(value, "item") else str(value)


def deserialize_outcome(text: str) -> PartitionOutcome:
    value = json.loads(text)
    return PartitionOutcome(metadata=value["metadata"], digest=value["digest"])


def _typed(metadata: dict[str, Any], digest: str) -> PartitionOutcome:
    """A task-folder stage's outcome, its paths typed for Dagster."""
    return PartitionOutcome({key: path_value(Path(value)) if key in ("path", "run_summary") else value
                             for key, value in metadata.items()}, digest)


def materialize_partition(config: SweepConfig, checkpoint: str, env: str, code: str, log: StageLog,
                          dagster_run_id: str | None = None) -> PartitionOutcome:
    if config.environment(env).tasks:
        return _typed(*materialize_taskset_partition(config, checkpoint, env, code, log, dagster_run_id))
    settings = config.materialization_settings(env)
    run_dir = config.run_dir(checkpoint, env)
    output = run_dir / MATERIALIZED_INPUTS_FILE
    with run_directory_lock(run_dir, materialize.MATERIALIZED_INPUTS_STAGE, dagster_run_id=dagster_run_id):
        record = materialize.materialize_and_record(config.environment(env).dataset, output, settings, code)
    rows = record["output"]["rows"]
    log.info(f"{output}: {rows} rows ({settings.num_repeats} repeats)")
    return PartitionOutcome(
        metadata={
            "path": path_value(output),
            "rows": rows,
            "num_repeats": settings.num_repeats,
            "agent": settings.agent,
            "source_digest": record["source"]["digest"],
            "settings_digest": record["settings_digest"],
        },
        digest=record["output"]["digest"],
    )


def _progress_logger(log: StageLog, checkpoint: str, env: str):
    """Log every tenth of the way, so a long collection is seen moving."""
    next_tenth = [1]

    def on_progress(progress: CollectionProgress) -> None:
        if progress.total and progress.done * 10 >= next_tenth[0] * progress.total:
            next_tenth[0] = progress.done * 10 // progress.total + 1
            log.info(f"{checkpoint} x {env}: collected {progress.done}/{progress.total} rows "
                     f"({progress.failed} failed)")

    return on_progress


def _interrupted_on_same_inputs(previous: dict, inputs_digest: str, checkpoint_digest: str | None) -> bool:
    """Resume only a collection that was cut short, on the very same inputs and checkpoint (a checkpoint whose
    digest is unknown is not known to be the same)."""
    return (
        checkpoint_digest is not None
        and previous.get("status") == COLLECTING
        and previous.get("inputs", {}).get("digest") == inputs_digest
        and previous.get("checkpoint", {}).get("digest") == checkpoint_digest
    )


def collect_partition(config: SweepConfig, checkpoint: str, env: str, endpoint: Endpoint, code: str, log: StageLog,
                      dagster_run_id: str | None = None) -> PartitionOutcome:
    if config.environment(env).tasks:  # task folders run in sandboxes, whatever the engine of the JSONL ones
        return _typed(*collect_taskset_partition(config, checkpoint, env, endpoint, code, log, dagster_run_id))
    if config.engine == "nemo_gym":
        return _collect_with_nemo_gym(config, checkpoint, env, endpoint, code, log, dagster_run_id)
    run_dir = config.run_dir(checkpoint, env)
    inputs_path, rollouts_path = run_dir / MATERIALIZED_INPUTS_FILE, run_dir / ROLLOUTS_FILE
    # Held from the resume decision to the digest of what was collected; collect() re-enters it.
    with run_directory_lock(run_dir, ROLLOUTS_STAGE, dagster_run_id=dagster_run_id):
        resume = _interrupted_on_same_inputs(
            read_manifest(run_dir).get(ROLLOUTS_STAGE, {}), file_digest(inputs_path), endpoint.checkpoint_digest
        )
        if resume:
            log.info(f"{env}: resuming a collection cut short on these same inputs and checkpoint")
        settings = CollectorSettings(
            model_url=endpoint.url,
            model_name=endpoint.model_name,
            concurrency=config.concurrency,
            request_timeout_s=config.request_timeout_s,
            api_key=endpoint.api_key,
        )
        served = {"name": checkpoint, "path": str(config.checkpoint_dir(checkpoint)),
                  "digest": endpoint.checkpoint_digest, "server_pid": endpoint.pid}
        summary = asyncio.run(
            collect(
                inputs_path, rollouts_path, config.runnable_environment(env), settings, resume=resume,
                on_progress=_progress_logger(log, checkpoint, env),
                manifest_extra={
                    "checkpoint": served,
                    "model_url": endpoint.url,  # what `gym-pipeline diagnose --probe` checks later
                    "code_version": code,
                    "verifier": verifier_record(config, env),
                },
            )
        )
        for torn in summary.torn_lines_repaired:
            log.warning(f"{checkpoint} x {env}: {torn}")
        repaired = "\n".join(map(str, summary.torn_lines_repaired)) or "none"
        return PartitionOutcome(
            metadata={
                "path": path_value(rollouts_path),
                "rollouts": summary.resumed + summary.collected,
                "resumed": summary.resumed,
                "failed": summary.failed,
                "expected": summary.total,
                "elapsed_s": round(summary.elapsed_s, 2),
                "model": endpoint.model_name,
                "checkpoint_digest": endpoint.checkpoint_digest or "",
                "torn_lines_repaired": repaired,
            },
            digest=summary.output_digest,
        )


def _collect_with_nemo_gym(config: SweepConfig, checkpoint: str, env: str, endpoint: Endpoint, code: str,
                           log: StageLog, dagster_run_id: str | None) -> PartitionOutcome:
    """The real `gym env start` + `gym eval run` on our inputs; always a fresh collection (no resume)."""
    run_dir = config.run_dir(checkpoint, env)
    rollouts_path = run_dir / ROLLOUTS_FILE
    settings = config.nemo_gym
    with run_directory_lock(run_dir, ROLLOUTS_STAGE, dagster_run_id=dagster_run_id):
        summary = collect_with_nemo_gym(
            run_dir / MATERIALIZED_INPUTS_FILE, rollouts_path, config.runnable_environment(env), endpoint.url,
            endpoint.model_name, settings.executable, api_key=endpoint.api_key, concurrency=config.concurrency,
            link_venvs=settings.link_venvs, search_dirs=settings.search_dirs, extra_overrides=settings.extra_overrides,
            startup_timeout_s=settings.startup_timeout_s,
            on_ready=lambda line: log.info(f"{checkpoint} x {env}: NeMo Gym {line}"),
            manifest_extra={
                "checkpoint": {"name": checkpoint, "path": str(config.checkpoint_dir(checkpoint)),
                               "digest": endpoint.checkpoint_digest, "server_pid": endpoint.pid},
                "model_url": endpoint.url,
                "code_version": code,
                "verifier": verifier_record(config, env),
            },
        )
    log.info(f"{checkpoint} x {env}: NeMo Gym collected {summary.collected} of {summary.total} rows "
             f"({len(summary.failed_keys)} failed) in {summary.elapsed_s:.1f}s")
    return PartitionOutcome(
        metadata={
            "path": path_value(rollouts_path),
            "engine": "nemo_gym",
            "rollouts": summary.collected,
            "failed": len(summary.failed_keys),
            "expected": summary.total,
            "elapsed_s": round(summary.elapsed_s, 2),
            "gym_env_start_s": round(summary.env_start_s, 2),
            "gym_eval_exit_code": summary.eval_exit_code,
            "model": endpoint.model_name,
            "checkpoint_digest": endpoint.checkpoint_digest or "",
        },
        digest=summary.output_digest,
    )


def gym_rescoring_settings(config: SweepConfig) -> GymRescoringSettings:
    """The sweep's `nemo_gym` settings, as a re-scoring through Gym's resources server uses them."""
    settings = config.nemo_gym
    return GymRescoringSettings(
        gym_executable=settings.executable, link_venvs=settings.link_venvs, search_dirs=settings.search_dirs,
        extra_overrides=settings.extra_overrides, startup_timeout_s=settings.startup_timeout_s,
        concurrency=config.concurrency, request_timeout_s=config.request_timeout_s)


def rescore_run_dir(config: SweepConfig, run_dir: Path, env: str, repeats: int = 1,
                    dagster_run_id: str | None = None, through_gym: bool = False) -> RescoringSummary:
    """`env`'s current verifier on every stored response of `run_dir`, with no model server: Gym's own resources
    server `env` (`gym env start`, then its /verify) for a run the nemo_gym engine collected, or when
    `through_gym` (a folder Gym wrote by hand); otherwise the environment's verifier in this process."""
    if through_gym or read_manifest(run_dir).get(ROLLOUTS_STAGE, {}).get("engine") == NEMO_GYM_ENGINE:
        return rescore_run_with_gym(run_dir, env, gym_rescoring_settings(config), repeats, dagster_run_id)
    return rescore_run(run_dir, config.runnable_environment(env), verifier_record(config, env), repeats,
                       dagster_run_id=dagster_run_id)


def reverify_partition(config: SweepConfig, checkpoint: str, env: str, log: StageLog, repeats: int = 1,
                       dagster_run_id: str | None = None) -> PartitionOutcome:
    """Re-score a partition's rollouts with its environment's current verifier (the `reverify` job): Gym's own
    resources server for a partition the nemo_gym engine collected."""
    run_dir = config.run_dir(checkpoint, env)
    summary = rescore_run_dir(config, run_dir, env, repeats, dagster_run_id)
    log.info(f"{checkpoint} x {env}: re-scored {summary.rescored} of {summary.rows} rows with "
             f"{summary.verifier['name']} (version {summary.verifier['version']}): {summary.changed} changed "
             f"({len(summary.changed_tasks)} tasks), {len(summary.flaky)} flaky over {repeats} repeats, "
             f"in {summary.elapsed_s:.1f}s")
    tasks = ", ".join(map(str, summary.changed_tasks[:50])) + (" ..." if len(summary.changed_tasks) > 50 else "")
    return PartitionOutcome(
        metadata={
            "path": path_value(run_dir / ROLLOUTS_FILE),
            "reverified": True,
            "rollouts": summary.rows,
            "rescored": summary.rescored,
            "changed": summary.changed,
            "changed_tasks": tasks or "none",
            "flaky": len(summary.flaky),
            "repeats": repeats,
            "verifier": summary.verifier["name"],
            "verifier_version": summary.verifier["version"],
            "elapsed_s": round(summary.elapsed_s, 2),
        },
        digest=file_digest(run_dir / ROLLOUTS_FILE),
    )


def _number(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _with_interval(value: float | None, low: float | None, high: float | None) -> str:
    return _number(value) if low is None or high is None else f"{_number(value)} [{low:.3f}, {high:.3f}]"


def summary_markdown(result: profile.ProfileResult) -> str:
    """The run at a glance: completion, reward and pass@k with their 95% intervals, difficulty, cut-offs,
    reward against length."""
    summary = result.analysis.summary
    difficulty = summary["difficulty"]
    cut = summary["cut_off"]
    length = summary["reward_vs_output_tokens"]
    rows = [
        ("completion", f"{result.completed_rollouts:,} / {result.expected_rollouts:,} rollouts "
                       f"({result.completion_pct:.2f}%)"),
        ("tasks profiled", f"{summary['tasks']:,} ({result.tasks_dropped:,} without rollouts dropped)"),
        ("masked rollouts", f"{result.masked_rollouts:,} (left out of every statistic)"),
        ("mean reward [95% interval]",
         _with_interval(summary["mean_reward"], summary["mean_reward_ci_low"], summary["mean_reward_ci_high"])),
        *((f"pass@{k} (reward >= {result.analysis.threshold:g})",
           f"{_with_interval(entry['mean'], entry['ci_low'], entry['ci_high'])} over {entry['tasks']:,} tasks")
          for k, entry in summary["pass_at_k"].items()),
        ("tasks never / sometimes / always solved",
         f"{difficulty['never']:,} / {difficulty['sometimes']:,} / {difficulty['always']:,}"),
        ("cut off by the length limit",
         "n/a" if cut["share"] is None else f"{100 * cut['share']:.2f}% ({cut['rollouts']:,} rollouts)"),
        ("reward vs output tokens", f"Pearson {_number(length['pearson'])}, Spearman {_number(length['spearman'])} "
                                    f"({length['rollouts']:,} rollouts)"),
    ]
    return "\n".join(["| | |", "|---|---|", *(f"| {name} | {value} |" for name, value in rows)])


def profile_metadata(result: profile.ProfileResult, paths: dict[str, Path]) -> dict[str, Any]:
    """The asset's metadata: counts, the summary table, two plots, and where the outputs are."""
    analysis = result.analysis
    agent = result.agent_metrics[0] if result.agent_metrics else {}
    return {
        "path": path_value(paths["reward_profiling"]),
        "reward_analysis": path_value(paths["reward_analysis"]),
        "summary": markdown_value(summary_markdown(result)),
        "task_reward_histogram": markdown_value(
            plots.markdown_image(plots.task_reward_histogram(analysis), "per-task mean reward")),
        "reward_vs_output_length": markdown_value(
            plots.markdown_image(plots.reward_vs_output_length(analysis), "reward against output length")),
        "tasks": len(result.task_rows),
        "tasks_dropped": result.tasks_dropped,
        "completed_rollouts": result.completed_rollouts,
        "expected_rollouts": result.expected_rollouts,
        "masked_rollouts": result.masked_rollouts,
        "mean_reward": agent.get("mean/reward"),
        "pass@1": analysis.summary["pass_at_k"].get("1", {}).get("mean"),
        "cut_off_share": analysis.summary["cut_off"]["share"],
    }


def profile_partition(config: SweepConfig, checkpoint: str, env: str, code: str, log: StageLog,
                      dagster_run_id: str | None = None) -> PartitionOutcome:
    run_dir = config.run_dir(checkpoint, env)
    # Held from reading the rollouts to recording the profile: no collection may change them meanwhile.
    with run_directory_lock(run_dir, PROFILE_STAGE, dagster_run_id=dagster_run_id):
        inputs_path, rollouts_path = run_dir / MATERIALIZED_INPUTS_FILE, run_dir / ROLLOUTS_FILE
        # Failed rollouts are reported by the diagnosis; the profile covers what completed.
        with warnings.catch_warnings():  # Gym's statistics warnings go to the run log instead of stderr
            warnings.simplefilter("ignore")
            # Our own collector's rollouts are read strictly; a real Gym's, as Gym reads them (with warnings).
            result = profile.profile_run(inputs_path, rollouts_path, allow_partial=config.allow_partial_profiles,
                                         strict=config.engine == "builtin")
        paths = profile.write_profile(result, rollouts_path)
        for line in [*result.tolerated, *result.warnings, *profile.summary_lines(result),
                     *reward_analysis.summary_lines(result.analysis)]:
            log.info(f"{checkpoint} x {env}: {line}")
        record_stage(
            run_dir,
            PROFILE_STAGE,
            {
                "inputs": {"materialized": file_digest(inputs_path), "rollouts": file_digest(rollouts_path)},
                "allow_partial": config.allow_partial_profiles,
                "code_version": code,
                "outputs": {name: str(path) for name, path in paths.items()},
            },
        )
        return PartitionOutcome(profile_metadata(result, paths), file_digest(run_dir / REWARD_PROFILE_FILE))


def diagnose_partition(config: SweepConfig, checkpoint: str, env: str, code: str, log: StageLog,
                       dagster_run_id: str | None = None) -> DiagnosedPartition:
    """The run directory classified the way the debugging guide says, written to `diagnosis.json`."""
    run_dir = config.run_dir(checkpoint, env)
    # Held from reading the run to recording the diagnosis, so it describes one state of the folder.
    with run_directory_lock(run_dir, DIAGNOSIS_STAGE, dagster_run_id=dagster_run_id):
        result = diagnosis.diagnose(run_dir)
        diagnosis.write_diagnosis(result, run_dir / DIAGNOSIS_FILE)
        record_stage(run_dir, DIAGNOSIS_STAGE, {
            "inputs": {name: file_digest(run_dir / name) for name in DIAGNOSED_FILES if (run_dir / name).exists()},
            "code_version": code,
            "category": result.category,
        })
    log.info(diagnosis.render_text(result))
    titles = [finding.title for finding in result.findings]
    return DiagnosedPartition(
        metadata={
            "path": path_value(run_dir / DIAGNOSIS_FILE),
            "category": result.category,
            "findings": len(titles),
            "titles": markdown_value("\n".join(f"- {title}" for title in titles) or "none"),
        },
        digest=file_digest(run_dir / DIAGNOSIS_FILE),
        healthy=result.healthy and not result.rules_failed,  # an incomplete diagnosis fails the check
        headline=result.headline,
    )
