"""The diagnosis vocabulary in one place: categories, debug steps, what a `failure_kind` means, launcher states.

Gym's sidecar failure classes live in `gym_pipeline.core.failure_kinds`; this module adds what a
diagnosis needs to read them: how each row `failure_kind` is scored (seeds/004's table and Gym's
shared list), and what a Slurm job state, a container exit code or a signal says about a stage.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass
from typing import Literal, get_args

# The seven categories of the debugging guide, in its order, and the verdict when nothing failed.
INFRA = "infra"
MODEL_SERVING = "model_serving"
CONFIG = "config"
DATA_SCHEMA = "data_schema"
VERIFIER_RUNTIME = "verifier_runtime"
CACHE_RESUME = "cache_resume"
THROUGHPUT_RESOURCES = "throughput_resources"
CATEGORIES: tuple[str, ...] = (
    INFRA,
    MODEL_SERVING,
    CONFIG,
    DATA_SCHEMA,
    VERIFIER_RUNTIME,
    CACHE_RESUME,
    THROUGHPUT_RESOURCES,
)
HEALTHY = "healthy"

Category = Literal[
    "infra", "model_serving", "config", "data_schema", "verifier_runtime", "cache_resume", "throughput_resources"
]

assert get_args(Category) == CATEGORIES, "Category and CATEGORIES must list the same names"

CATEGORY_MEANINGS: dict[str, str] = {
    INFRA: "Slurm, Ray, container, filesystem, network, ports",
    MODEL_SERVING: "vLLM startup, readiness, errors, throughput",
    CONFIG: "wrong config bundle, missing agent, wrong extra args",
    DATA_SCHEMA: "JSONL fields do not match what the verifier or resources server expects",
    VERIFIER_RUNTIME: "resources server exception or malformed verify response",
    CACHE_RESUME: "stale materialized inputs or partial rollout output",
    THROUGHPUT_RESOURCES: "concurrency too high, judge bottleneck, tool/sandbox latency",
}

# The guide's debug order: every rule belongs to one step, and findings come out in this order.
DEBUG_STEPS: dict[int, str] = {
    1: "Slurm/Ray job state and logs",
    2: "model serving readiness",
    3: "Gym server readiness",
    4: "tool routing and sandbox readiness",
    5: "materialized inputs and source data",
    6: "rollout output and profile counts",
    7: "first real verifier exception",
    8: "failing row schema vs the request model",
}

# Gym's debug switches, quoted by many fixes.
REQUEST_DEBUG_FLAG = "++global_aiohttp_client_request_debug=True"
PARTIAL_PROFILE_FLAG = "++allow_partial_rollouts=True"
SIDECAR_FLAG = "++route_failures_to_sidecar=true"


# ---------------------------------------------------------------------------------------------
# Row `failure_kind`s: what the verifier's verdict means for the score.

SCORED_AS_ZERO = "scored as 0"
MASKED = "masked"
RETRIED = "retried"
STEP_SCORES_ZERO = "the step scores 0"


@dataclass(frozen=True)
class FailureKind:
    treatment: str  # SCORED_AS_ZERO, MASKED, RETRIED or STEP_SCORES_ZERO
    meaning: str


FAILURE_KINDS: dict[str, FailureKind] = {
    "harbor:missing_reward": FailureKind(
        SCORED_AS_ZERO, "test.sh wrote neither reward.txt nor reward.json (a Python verifier that raised lands here)"
    ),
    "harbor:invalid_reward": FailureKind(SCORED_AS_ZERO, "the reward file could not be read as a finite number"),
    "harbor:verifier_timeout": FailureKind(SCORED_AS_ZERO, "test.sh ran past its timeout without a reward"),
    "harbor:task_deadline": FailureKind(RETRIED, "the episode ran past its task's time budget"),
    "harbor:trajectory_export_failed": FailureKind(MASKED, "the transcript could not be written for the verifier"),
    "harbor:entrypoint_failed": FailureKind(
        MASKED, "the image's entrypoint exited non-zero after the seed (during the rollout or in a separate verifier)"
    ),
    "harbor:overlay_failed": FailureKind(MASKED, "an overlay-mode RUN line failed in the verifier's own sandbox"),
    "harbor:step_setup_failed": FailureKind(STEP_SCORES_ZERO, "a step's workdir/setup.sh failed"),
    "harbor:step_workdir_failed": FailureKind(STEP_SCORES_ZERO, "a step's workdir/ could not be unpacked"),
    "harbor:step_healthcheck_failed": FailureKind(STEP_SCORES_ZERO, "a step's [steps.healthcheck] never passed"),
    "provider_unavailable": FailureKind(MASKED, "a sandbox operation failed during verification"),
    "verifier_error": FailureKind(MASKED, "the verifier (test.sh) could not run"),
    "persistence_failed": FailureKind(MASKED, "Gym could not create the verifier log folder"),
}

# The kinds seeds/004 gives their own entry; the rest are read together as "reward missing or invalid".
TIMEOUT_KINDS = ("harbor:verifier_timeout", "harbor:task_deadline")
STEP_KINDS = ("harbor:step_setup_failed", "harbor:step_workdir_failed", "harbor:step_healthcheck_failed")

# `_ng_failure_stage` of a failed episode (seeds/004: admission, seed, agent, verification, cleanup).
AGENT_STAGE = "agent"


# ---------------------------------------------------------------------------------------------
# Launchers: a Slurm job's state, a container's exit, a process's signal.

@dataclass(frozen=True)
class JobOutcome:
    """What a launcher state says happened to a stage, in words a fix can follow."""

    summary: str
    cause: str
    failed: bool = True
    category: str = INFRA  # a job over its memory or time limit is a resources problem, not the cluster's
    own_failure: bool = False  # the job's own process failed: its log holds the cause


# sacct/squeue states (a state may carry a suffix, e.g. "CANCELLED by 1234").
SLURM_STATES: dict[str, JobOutcome] = {
    "COMPLETED": JobOutcome("completed", "the job ended with exit code 0", failed=False),
    "RUNNING": JobOutcome("still running", "the job has not ended yet", failed=False),
    "PENDING": JobOutcome("still pending", "the job is waiting for resources or a limit"),
    "OUT_OF_MEMORY": JobOutcome(
        "ran out of memory", "the job used more memory than it asked for and Slurm killed it",
        category=THROUGHPUT_RESOURCES,
    ),
    "TIMEOUT": JobOutcome("hit its time limit", "the job ran past its --time limit and Slurm killed it",
                          category=THROUGHPUT_RESOURCES),
    "NODE_FAIL": JobOutcome("lost its node", "the node running the job failed; nothing in the job caused it"),
    "CANCELLED": JobOutcome("was cancelled", "someone (scancel, an admin, or a dependency) cancelled the job"),
    "PREEMPTED": JobOutcome("was preempted", "a higher-priority job took the node"),
    "BOOT_FAIL": JobOutcome("failed to boot", "the node could not start the job"),
    "DEADLINE": JobOutcome("missed its deadline", "the job could not finish before its --deadline",
                           category=THROUGHPUT_RESOURCES),
    "FAILED": JobOutcome("failed", "a process of the job exited non-zero", own_failure=True),
}

# Reasons Slurm gives for a job that cannot start because it asks for more than its partition, QOS or
# association allows (`squeue -o %r`): the request is the user's setting to change, not the cluster's fault.
SLURM_REQUEST_REASONS: dict[str, tuple[str, str]] = {
    "PartitionConfig": ("the job asks for more than its partition has (nodes, CPUs, memory or GPUs)",
                        "the request (`--nodes` in `extra_options`, `cpus_per_task`, `memory_mb`, `gres`)"),
    "PartitionNodeLimit": ("the job asks for more nodes than its partition allows", "`--nodes` in `extra_options`"),
    "PartitionTimeLimit": ("the job's --time is longer than its partition allows", "`time_limit`"),
    "QOSMaxNodePerJobLimit": ("the job asks for more nodes than its QOS allows", "`--nodes` in `extra_options`"),
    "QOSMaxWallDurationPerJobLimit": ("the job's --time is longer than its QOS allows", "`time_limit`"),
    "QOSMaxCpuPerJobLimit": ("the job asks for more CPUs than its QOS allows", "`cpus_per_task`"),
    "QOSMaxMemoryPerJob": ("the job asks for more memory than its QOS allows", "`memory_mb`"),
    "QOSMaxGRESPerJob": ("the job asks for more GPUs than its QOS allows", "`gres`"),
    "AssocMaxNodesPerJobLimit": ("the job asks for more nodes than its account allows", "`--nodes` in `extra_options`"),
    "AssocMaxWallDurationPerJobLimit": ("the job's --time is longer than its account allows", "`time_limit`"),
    "BadConstraints": ("no node has the features the job asks for", "`--constraint` in `extra_options`"),
}

# Container runtimes' own exit codes; 128+N means "killed by signal N".
CONTAINER_EXIT_CODES: dict[int, str] = {
    125: "the container runtime could not start the container (bad run options, missing image)",
    126: "the container's command could not be invoked (not executable)",
    127: "the container's command was not found in the image",
}


def signal_name(value: int | str | None) -> str | None:
    """'SIGKILL' for 9, 'SIGKILL', 'KILL' or '9'; None when unknown."""
    if value is None:
        return None
    text = str(value).strip().upper()
    if text.lstrip("-").isdigit():
        try:
            return signal.Signals(abs(int(text))).name
        except ValueError:
            return f"signal {abs(int(text))}"
    name = text if text.startswith("SIG") else f"SIG{text}"
    return name if name in signal.Signals.__members__ else text


def exit_signal(exit_code: int | None) -> str | None:
    """The signal an exit code reports: -N from Python's subprocess, 128+N from a shell or a container."""
    if exit_code is None:
        return None
    if exit_code < 0:
        return signal_name(-exit_code)
    if 128 < exit_code < 128 + 65:
        return signal_name(exit_code - 128)
    return None


SIGNAL_MEANINGS: dict[str, str] = {
    "SIGKILL": "killed outright (the kernel's OOM killer, `docker kill`/a stop timeout, or Slurm enforcing a limit)",
    "SIGTERM": "asked to stop (scancel, `docker stop`, a supervisor, or a Ctrl-C that was forwarded)",
    "SIGINT": "interrupted (Ctrl-C)",
    "SIGSEGV": "crashed on a memory access (a native extension, CUDA, or a corrupted install)",
    "SIGABRT": "aborted itself (a failed native assertion; read the last lines before it)",
    "SIGBUS": "crashed on a bus error (often a full /dev/shm or a truncated memory-mapped file)",
}
