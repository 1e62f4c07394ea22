"""NeMo Gym's failure vocabulary in one place: sidecar failure classes and row `failure_kind`s."""

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

# Gym retries a failed (task, rollout) up to this many attempts (NEMO_GYM_MAX_ROLLOUT_ATTEMPTS).
DEFAULT_MAX_ROLLOUT_ATTEMPTS = 3
