"""The built-in engine against the real simulated policy, over HTTP on loopback."""

import asyncio
import socket

import orjson
import pytest

from gym_pipeline.core.formats import FailureRow, RolloutRow, read_rows
from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.core.profile import profile_run
from gym_pipeline.diagnose import diagnose
from gym_pipeline.engines.builtin import CollectorSettings, collect, failures_path_for
from gym_pipeline.engines.responses import output_text
from gym_pipeline.environments import get_environment
from gym_pipeline.taskfolders.collect import TaskRunSettings

ENV = "string_match"
REPEATS = 2




@pytest.fixture
def inputs(tmp_path):
    path = tmp_path / "rollouts_materialized_inputs.jsonl"
    materialize_file(get_environment(ENV).dataset_path, path, MaterializationSettings(REPEATS, get_environment(ENV).agent_name))
    return path


def _keys(path, model):
    return [(row.task_index, row.rollout_index) for row in read_rows(path, model)]


def _collect(inputs, output, settings, resume=False):
    return asyncio.run(collect(inputs, output, get_environment(ENV), settings, resume=resume))


def test_collects_every_row_in_gym_format(policy_endpoint, inputs, tmp_path):
    output = tmp_path / "rollouts.jsonl"
    summary = _collect(inputs, output, CollectorSettings(model_url=policy_endpoint.url, concurrency=8))
    materialized = [
        (row["_ng_task_index"], row["_ng_rollout_index"]) for row in map(orjson.loads, inputs.read_bytes().splitlines())]
    collected = list(read_rows(output, RolloutRow))
    assert summary.collected == len(materialized) == len(collected)
    assert sorted((r.task_index, r.rollout_index) for r in collected) == sorted(materialized)
    assert summary.failed == 0 and failures_path_for(output).read_bytes() == b""
    environment = get_environment(ENV)
    by_key = {(row["_ng_task_index"], row["_ng_rollout_index"]): row
              for row in map(orjson.loads, inputs.read_bytes().splitlines())}
    rewards = set()
    for row in map(orjson.loads, output.read_bytes().splitlines()):
        key = (row["_ng_task_index"], row["_ng_rollout_index"])
        assert list(row)[:3] == ["responses_create_params", "response", "reward"]
        assert row["agent_ref"] == {"name": environment.agent_name}
        assert row["_ng_environment_server"] == environment.environment_server_name
        assert row["response"]["usage"]["total_tokens"] > 0
        # The stored reward is the verifier's verdict on the stored answer.
        assert row["reward"] == environment.verify(by_key[key], output_text(row["response"]))["reward"]
        rewards.add(row["reward"])
    assert rewards == {0.0, 1.0}


def test_resume_continues_where_it_stopped(policy_endpoint, inputs, tmp_path):
    output = tmp_path / "rollouts.jsonl"
    settings = CollectorSettings(model_url=policy_endpoint.url, concurrency=8)
    _collect(inputs, output, settings)
    lines = output.read_bytes().splitlines(keepends=True)
    kept = 37
    output.write_bytes(b"".join(lines[:kept]) + lines[kept][:25])  # killed mid-write
    summary = _collect(inputs, output, settings, resume=True)
    assert summary.resumed == kept
    assert summary.collected == len(lines) - kept
    keys = _keys(output, RolloutRow)
    assert len(keys) == len(set(keys)) == len(lines)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_model_goes_to_the_sidecar_after_three_attempts(inputs, tmp_path):
    output = tmp_path / "rollouts.jsonl"
    settings = CollectorSettings(model_url=f"http://127.0.0.1:{_closed_port()}/v1", model_name="m",
                                 concurrency=4, backoff_base_s=0.001)
    summary = _collect(inputs, output, settings)
    failures = list(read_rows(failures_path_for(output), FailureRow))
    total = len(inputs.read_bytes().splitlines())
    assert summary.failed == total and summary.collected == 0
    assert len(failures) == 3 * total
    assert {f.failure_class for f in failures} == {"agent_request_failed"}
    assert not any(f.failure_terminal for f in failures)  # as Gym: only an environment stamps a failure terminal
    # Resume does not retry keys that used up their attempts.
    assert _collect(inputs, output, settings, resume=True).collected == 0


def test_resume_with_more_attempts_allowed_retries_given_up_rows(policy_endpoint, inputs, tmp_path, monkeypatch):
    """Gym's resume counts a row's sidecar rows against NEMO_GYM_MAX_ROLLOUT_ATTEMPTS: raised after the
    model server is fixed, the rows that used up three attempts get a fourth, and succeed."""
    output = tmp_path / "rollouts.jsonl"
    down = CollectorSettings(model_url=f"http://127.0.0.1:{_closed_port()}/v1", model_name="m", backoff_base_s=0.001)
    total = len(inputs.read_bytes().splitlines())
    assert _collect(inputs, output, down).failed == total
    monkeypatch.setenv("NEMO_GYM_MAX_ROLLOUT_ATTEMPTS", "4")
    summary = _collect(inputs, output, CollectorSettings(model_url=policy_endpoint.url, concurrency=8), resume=True)
    assert summary.collected == total and summary.failed == 0
    assert len(_keys(output, RolloutRow)) == total


def test_unknown_model_endpoint_is_a_clear_error(inputs, tmp_path):
    from gym_pipeline.engines.builtin import CollectionError

    settings = CollectorSettings(model_url=f"http://127.0.0.1:{_closed_port()}/v1")
    with pytest.raises(CollectionError, match="did not answer"):
        _collect(inputs, tmp_path / "rollouts.jsonl", settings)


class _FlakyVerifier:
    """string_match whose verifier raises on task 0, as a verifier bug would."""

    def __init__(self):
        self._environment = get_environment(ENV)

    def __getattr__(self, name):
        return getattr(self._environment, name)

    def verify(self, row, response_text):
        if row["_ng_task_index"] == 0:
            raise KeyError("expected_answer")
        return self._environment.verify(row, response_text)


def test_a_verifier_that_raises_gives_masked_verifier_error_rows(policy_endpoint, inputs, tmp_path):
    output = tmp_path / "rollouts.jsonl"
    settings = CollectorSettings(model_url=policy_endpoint.url, concurrency=8)
    summary = asyncio.run(collect(inputs, output, _FlakyVerifier(), settings))

    assert summary.failed == 0 and failures_path_for(output).read_bytes() == b""  # nothing lost, no crash
    rows = [orjson.loads(line) for line in output.read_bytes().splitlines()]
    broken = [row for row in rows if row["_ng_task_index"] == 0]
    assert len(broken) == REPEATS
    for row in broken:  # Gym's shared vocabulary: verifier_error is masked, never a silent reward of 0
        assert (row["failure_kind"], row["mask_sample"]) == ("verifier_error", True)
        assert row["failure_reason"] == "KeyError: 'expected_answer'" and row["response"]["output"]
    assert all(row.get("failure_kind") != "verifier_error" for row in rows if row["_ng_task_index"] != 0)

    result = profile_run(inputs, output)
    assert result.masked_rollouts == REPEATS and result.completed_rollouts == len(rows)
    report = diagnose(tmp_path)
    assert any("verifier_error" in finding.title for finding in report.findings), report.findings


@pytest.mark.parametrize(("value", "attempts"), [(None, 3), ("", 3), ("5", 5), ("0", 3), ("many", 3)])
def test_attempts_per_rollout_follow_gyms_variable(monkeypatch, caplog, value, attempts):
    # Gym 0.7.0's get_max_rollout_attempts: a positive integer, else the default with a warning
    if value is None:
        monkeypatch.delenv("NEMO_GYM_MAX_ROLLOUT_ATTEMPTS", raising=False)
    else:
        monkeypatch.setenv("NEMO_GYM_MAX_ROLLOUT_ATTEMPTS", value)
    assert CollectorSettings(model_url="http://127.0.0.1:9/v1").max_attempts == attempts
    assert TaskRunSettings().max_attempts == attempts
    assert ("could not parse NEMO_GYM_MAX_ROLLOUT_ATTEMPTS" in caplog.text) == (value in ("0", "many"))


def test_a_server_that_takes_connections_and_answers_none_is_warned_about(inputs, tmp_path, caplog):
    # a listening socket never accepted: the kernel completes the handshake and nothing ever answers (a stopped or
    # hung server)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}/v1"
        settings = CollectorSettings(model_url=url, model_name="m", max_attempts=1, request_timeout_s=1.5,
                                     silence_warning_s=0.5)
        summary = _collect(inputs, tmp_path / "rollouts.jsonl", settings)
    assert summary.collected == 0 and summary.failed_keys
    assert f"no answer from the model endpoint {url} for " in caplog.text
