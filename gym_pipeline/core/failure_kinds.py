"""NeMo Gym's failure vocabulary in one place: sidecar failure classes and row `failure_kind`s."""

import logging
import os

log = logging.getLogger(__name__)

# `_ng_failure_class` values of the failures sidecar.
AGENT_RUN_ERROR = "agent_run_error"  # the agent/model answered with an HTTP error
AGENT_REQUEST_FAILED = "agent_request_failed"  # the request never got an answer (refused, reset, timeout)
ENVIRONMENT_SERVER_FAILED = "environment_server_failed"  # the verifier raised or answered an error
TIMEOUT_EXCEEDED = "timeout_exceeded"
TRANSIENT = "transient"
SKIPPED = "skipped"

FAILURE_CLASSES = (
    AGENT_RUN_ERROR,
    AGENT_REQUEST_FAILED,
    ENVIRONMENT_SERVER_FAILED,
    TIMEOUT_EXCEEDED,
    TRANSIENT,
    SKIPPED,
)

# Row `failure_kind`s we write (Gym's shared vocabulary; seeds/004 gives their meaning).
VERIFIER_ERROR = "verifier_error"  # the verifier could not run: masked, counted for completion only

# Gym retries a failed (task, rollout) up to this many attempts, unless NEMO_GYM_MAX_ROLLOUT_ATTEMPTS says otherwise.
DEFAULT_MAX_ROLLOUT_ATTEMPTS = 3
MAX_ROLLOUT_ATTEMPTS_VARIABLE = "NEMO_GYM_MAX_ROLLOUT_ATTEMPTS"


def max_rollout_attempts() -> int:
    """Attempts per rollout as Gym 0.7.0 reads them: NEMO_GYM_MAX_ROLLOUT_ATTEMPTS when it is a positive integer,
    else (unset, empty, or not one: with a warning, as Gym) the default of 3."""
    raw = os.environ.get(MAX_ROLLOUT_ATTEMPTS_VARIABLE, "")
    if not raw:
        return DEFAULT_MAX_ROLLOUT_ATTEMPTS
    try:
        attempts = int(raw)
    except ValueError:
        attempts = 0
    if attempts < 1:
        log.warning("could not parse %s=%r (a positive integer); falling back to default %d",
                    MAX_ROLLOUT_ATTEMPTS_VARIABLE, raw, DEFAULT_MAX_ROLLOUT_ATTEMPTS)
        return DEFAULT_MAX_ROLLOUT_ATTEMPTS
    return attempts

# Task-folder (Harbor) episodes: row `failure_kind`s (their treatment is in diagnose/vocabulary.py) and the
# `_ng_failure_stage` of a failed episode in the sidecar.
HARBOR_MISSING_REWARD = "harbor:missing_reward"
HARBOR_INVALID_REWARD = "harbor:invalid_reward"
HARBOR_VERIFIER_TIMEOUT = "harbor:verifier_timeout"
HARBOR_TASK_DEADLINE = "harbor:task_deadline"
HARBOR_ENTRYPOINT_FAILED = "harbor:entrypoint_failed"
HARBOR_TRAJECTORY_EXPORT_FAILED = "harbor:trajectory_export_failed"
PROVIDER_UNAVAILABLE = "provider_unavailable"
STAGE_SEED, STAGE_AGENT, STAGE_VERIFICATION, STAGE_CLEANUP = "seed", "agent", "verification", "cleanup"
