"""One episode of a task: seed a sandbox, run the agent, verify with the task's own tests, clean up.

As seed 004's table says: `tests/` is copied to `/tests` and `test.sh` runs within `[verifier].timeout_sec`
(after dataset.toml), writing everything it prints to `/logs/verifier/test-stdout.txt`; `/logs/verifier` is
emptied first so an agent cannot plant a reward. The outcome is either a result (a row of `rollouts.jsonl`,
possibly with a `failure_kind`: `harbor:missing_reward`, `harbor:invalid_reward`, `harbor:verifier_timeout` are
scored as 0; `harbor:entrypoint_failed`, `harbor:trajectory_export_failed` and `provider_unavailable` during
verification are masked) or a failure with its stage (seed, agent, verification, cleanup) for the sidecar,
retried unless it is terminal. `harbor:task_deadline` is such a failure: the episode ran past its budget,
counted from the moment the sandbox is ready: `[agent].timeout_sec` + `[verifier].timeout_sec` + a grace period.

Each episode keeps its evidence in `log_dir`: `agent/transcript.json` and `verifier/` (a copy of the container's
`/logs/verifier`: `test-stdout.txt`, the reward file).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docker

from gym_pipeline.core import failure_kinds as kinds
from gym_pipeline.core.formats import write_json_atomic
from gym_pipeline.core.redaction import redact
from gym_pipeline.diagnose.vocabulary import FAILURE_KINDS, MASKED
from gym_pipeline.taskfolders.agents import AgentFailed, Transcript
from gym_pipeline.taskfolders.loader import Task
from gym_pipeline.taskfolders.rewards import read_reward
from gym_pipeline.taskfolders.sandbox import Sandbox, SandboxUnavailable

DEFAULT_GRACE_S = 60.0  # seconds an episode may take beyond its agent and verifier timeouts (setup, copies)
TRANSCRIPT_FILE = "transcript.json"
TEST_STDOUT = "test-stdout.txt"

Agent = Callable[[Sandbox, Task], Transcript]


@dataclass
class EpisodeOutcome:
    log_dir: Path
    transcript: Transcript | None = None
    # a result: the verifier's verdict
    reward: float | None = None
    rewards: dict[str, float] = field(default_factory=dict)
    failure_kind: str | None = None
    failure_reason: str | None = None
    # a failure: no result, a row of the sidecar
    failed_stage: str | None = None
    failure_class: str | None = None
    failure_message: str | None = None
    http_status: int | None = None
    response_body: str | None = None
    retryable: bool = True
    elapsed_s: float = 0.0

    @property
    def has_result(self) -> bool:
        return self.failed_stage is None

    @property
    def mask_sample(self) -> bool:
        known = FAILURE_KINDS.get(self.failure_kind or "")
        return bool(known and known.treatment == MASKED)

    def fail(self, stage: str, failure_class: str, message: str, retryable: bool = True,
             failure_kind: str | None = None) -> EpisodeOutcome:
        self.failed_stage, self.failure_class, self.failure_message = stage, failure_class, redact(message)
        self.retryable, self.failure_kind = retryable, failure_kind
        self.reward = None
        return self

    def verdict(self, reward: float, failure_kind: str | None = None, reason: str | None = None) -> EpisodeOutcome:
        self.reward, self.failure_kind, self.failure_reason = reward, failure_kind, redact(reason) if reason else None
        return self


def changed_since_materialization(task: Task) -> str:
    return f"Task folder {task.path} changed since materialization; re-materialize the taskset."


@dataclass
class EpisodeSettings:
    host_allows_internet: bool = False
    grace_s: float = DEFAULT_GRACE_S
    run_dir: Path | None = None  # labels the containers, so a test can find what a run left behind


def run_episode(client: docker.DockerClient, task: Task, image: str, agent: Agent, log_dir: Path,
                settings: EpisodeSettings, expected_digest: str | None = None) -> EpisodeOutcome:
    started = time.monotonic()
    outcome = EpisodeOutcome(log_dir=log_dir)
    if expected_digest is not None and expected_digest != task.digest:
        return outcome.fail(kinds.STAGE_SEED, kinds.ENVIRONMENT_SERVER_FAILED, changed_since_materialization(task),
                            retryable=False)
    sandbox = Sandbox(client, image, task, settings.host_allows_internet, settings.run_dir)
    try:
        try:
            sandbox.start()
        except SandboxUnavailable as error:
            return outcome.fail(kinds.STAGE_SEED, kinds.ENVIRONMENT_SERVER_FAILED, str(error))
        ready = time.monotonic()
        budget = task.agent_timeout_sec + task.verifier_timeout_sec + settings.grace_s
        _agent_and_verification(sandbox, task, agent, outcome, ready, budget)
    finally:
        try:
            sandbox.remove()
        except SandboxUnavailable as error:
            if outcome.has_result:
                outcome.fail(kinds.STAGE_CLEANUP, kinds.ENVIRONMENT_SERVER_FAILED, str(error))
        outcome.elapsed_s = time.monotonic() - started
        if outcome.transcript is not None:
            write_json_atomic(log_dir / "agent" / TRANSCRIPT_FILE, outcome.transcript.as_dict(), indent=True)
    return outcome


def _past_deadline(task: Task, outcome: EpisodeOutcome, ready: float, budget: float, stage: str) -> bool:
    spent = time.monotonic() - ready
    if spent <= budget:
        return False
    outcome.fail(stage, kinds.TIMEOUT_EXCEEDED, f"Episode exceeded the time budget of task {task.task_id} "
                 f"({spent:.1f} s > {budget:g} s: [agent].timeout_sec + [verifier].timeout_sec + grace)",
                 failure_kind=kinds.HARBOR_TASK_DEADLINE)
    return True


def _agent_and_verification(sandbox: Sandbox, task: Task, agent: Agent, outcome: EpisodeOutcome, ready: float,
                            budget: float) -> None:
    try:
        outcome.transcript = agent(sandbox, task)
    except AgentFailed as error:
        outcome.fail(kinds.STAGE_AGENT, error.failure_class, str(error),
                     retryable=error.failure_class != kinds.SKIPPED)
        outcome.http_status, outcome.response_body = error.http_status, error.body
        return
    except SandboxUnavailable as error:
        if (code := sandbox.exit_code()) not in (None, 0):
            outcome.verdict(0.0, kinds.HARBOR_ENTRYPOINT_FAILED,
                            f"the image's entrypoint exited with code {code} during the rollout ({error})")
            return
        outcome.fail(kinds.STAGE_AGENT, kinds.ENVIRONMENT_SERVER_FAILED, str(error))
        return
    if _past_deadline(task, outcome, ready, budget, kinds.STAGE_AGENT):
        return
    if (code := sandbox.exit_code()) not in (None, 0):
        outcome.verdict(0.0, kinds.HARBOR_ENTRYPOINT_FAILED,
                        f"the image's entrypoint exited with code {code} during the rollout")
        return
    try:  # Harbor's agents leave their trajectory in /logs/agent, where a verifier may read it
        sandbox.put_file("/logs", "agent/trajectory.json",
                         json.dumps(outcome.transcript.as_dict(), indent=1).encode())
    except SandboxUnavailable as error:
        outcome.verdict(0.0, kinds.HARBOR_TRAJECTORY_EXPORT_FAILED, str(error))
        return
    _verify(sandbox, task, outcome)
    _past_deadline(task, outcome, ready, budget, kinds.STAGE_VERIFICATION)


def _verify(sandbox: Sandbox, task: Task, outcome: EpisodeOutcome) -> None:
    verifier_dir = outcome.log_dir / "verifier"
    try:
        sandbox.run("rm -rf /logs/verifier && mkdir -p /logs/verifier", timeout_s=30)
        sandbox.put_folder(task.tests_dir, "/tests")
        result = sandbox.run(f"bash /tests/test.sh > /logs/verifier/{TEST_STDOUT} 2>&1",
                             timeout_s=task.verifier_timeout_sec, workdir=None,
                             environment=task.config.verifier.env or None)
        sandbox.get_folder("/logs/verifier", verifier_dir)
    except SandboxUnavailable as error:
        if (code := sandbox.exit_code()) not in (None, 0):
            outcome.verdict(0.0, kinds.HARBOR_ENTRYPOINT_FAILED,
                            f"the image's entrypoint exited with code {code} during verification")
        else:
            outcome.verdict(0.0, kinds.PROVIDER_UNAVAILABLE, str(error))
        return
    reading = read_reward(verifier_dir)
    outcome.rewards = reading.rewards
    if result.timed_out and reading.failure_kind == kinds.HARBOR_MISSING_REWARD:
        outcome.verdict(0.0, kinds.HARBOR_VERIFIER_TIMEOUT, f"test.sh ran past [verifier].timeout_sec="
                        f"{task.verifier_timeout_sec:g} without writing a reward")
        return
    reason = reading.failure_reason
    if reason and reading.failure_kind == kinds.HARBOR_MISSING_REWARD:
        reason += f" (test.sh exited {result.exit_code}; see verifier/{TEST_STDOUT})"
    outcome.verdict(reading.reward, reading.failure_kind, reason)


def rollout_fields(outcome: EpisodeOutcome) -> dict[str, Any]:
    """The verifier's fields of a result row, in Gym's order."""
    return {"reward": outcome.reward, "mask_sample": outcome.mask_sample, "failure_kind": outcome.failure_kind,
            "failure_reason": outcome.failure_reason, "rewards": outcome.rewards}
