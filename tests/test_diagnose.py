"""Diagnosis of NeMo Gym run folders: real 0.7.0 fixtures, and copies of them broken on purpose."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES

from gym_pipeline.core.formats import (
    FAILURES_FILE,
    MATERIALIZED_INPUTS_FILE,
    REWARD_PROFILE_FILE,
    ROLLOUTS_FILE,
)
from gym_pipeline.core.run_lock import LOCK_FILE
from gym_pipeline.diagnose import (
    CATEGORIES,
    RULES,
    DiagnosisReport,
    Finding,
    collect_evidence,
    diagnose,
    read_diagnosis,
    redact,
    render_text,
    write_diagnosis,
)
from gym_pipeline.diagnose.nested import unwrap_inner_server_error

CLEAN = FIXTURES / "clean_run"
PARTIAL = FIXTURES / "partial_run_with_failures"
LOGS = FIXTURES / "logs"
DEBUG_FLAG = "++global_aiohttp_client_request_debug=True"


def copy_run(source: Path, tmp_path: Path, name: str = "run") -> Path:
    """A writable copy of a read-only fixture folder."""
    target = tmp_path / name
    shutil.copytree(source, target)
    for path in target.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    target.chmod(0o755)
    return target


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def write_rows(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def failure_row(task: int, rollout: int, **fields) -> dict:
    row = {
        "_ng_failure_class": "agent_run_error",
        "_ng_failure_type": "ClientResponseError",
        "_ng_failure_message": "500, message='Internal Server Error', url='http://127.0.0.1:12228/run'",
        "_ng_failure_http_status": 500,
        "_ng_failure_response_body": None,
        "_ng_task_index": task,
        "_ng_rollout_index": rollout,
        "agent_ref": {"name": "string_match_simple_agent"},
    }
    row.update(fields)
    return row


def nested_body(chain: list[str], inner: bytes) -> str:
    """A body as Gym's exception middleware nests it: each layer a JSON string around a bytes repr."""
    body = inner
    for server in reversed(chain):
        body = json.dumps(f"Hit an exception in {server} calling an inner server: {body!r}").encode()
    return body.decode()


def partial_with_failures(tmp_path: Path, rows: list[dict]) -> Path:
    """The partial fixture with its sidecar replaced by `rows` (failures for the keys of task 2)."""
    run = copy_run(PARTIAL, tmp_path)
    write_rows(run / FAILURES_FILE, rows)
    return run


def finding_keys(report: DiagnosisReport) -> list[tuple[str, str]]:
    return [(f.category, f.title) for f in report.findings]


# ---------------------------------------------------------------------------------------------
# The real fixtures.


def test_categories_are_the_seven_of_the_guide():
    assert CATEGORIES == (
        "infra",
        "model_serving",
        "config",
        "data_schema",
        "verifier_runtime",
        "cache_resume",
        "throughput_resources",
    )
    steps = [rule.step for rule in RULES]
    assert steps == sorted(steps) and steps[0] == 1 and steps[-1] == 8


def test_clean_run_is_healthy():
    report = diagnose(CLEAN)
    assert report.category == "healthy"
    assert report.findings == []
    data = report.to_json_dict()
    assert data["category"] == "healthy" and data["findings"] == []
    assert data["summary"]["rows"] == {"materialized": 20, "rollouts": 20, "failures": 0, "profile": 5}
    text = render_text(report)
    assert text.splitlines()[0].startswith(f"{CLEAN}: healthy.")
    assert "20 rollouts" in text


def test_partial_run_is_model_serving_with_the_sidecar_line_and_debug_advice():
    report = diagnose(PARTIAL)
    assert report.category == "model_serving"
    assert len(report.findings) == 1, finding_keys(report)
    finding = report.findings[0]
    # the innermost error, dug out of three levels of nested "inner server" 500s
    assert "injected failure" in finding.title and "BadRequestError" in finding.title
    assert "VLLMModel___policy_model" in finding.cause
    assert "[(2, 0), (2, 1), (2, 2), (2, 3)]" in finding.cause
    first = finding.evidence[0]
    assert (first.file, first.line) == (FAILURES_FILE, 1)
    assert first.text.startswith('{"_ng_failure_class":"agent_run_error"')
    assert len(first.text) <= 300
    assert DEBUG_FLAG in finding.fix
    assert "--resume" in finding.fix
    # the row to re-run is named by its line in the materialized inputs (task 2 starts at line 9)
    assert f"sed -n '9p' {PARTIAL / MATERIALIZED_INPUTS_FILE}" in finding.fix

    data = report.to_json_dict()
    assert data["category"] == "model_serving"
    assert set(data["findings"][0]) == {"category", "title", "evidence", "cause", "fix", "id", "role", "caused_by"}
    assert data["findings"][0]["role"] == "cause" and data["findings"][0]["caused_by"] is None
    assert data["findings"][0]["evidence"][0] == {"file": FAILURES_FILE, "line": 1, "text": first.text}
    assert data["summary"]["failure_classes"] == {"agent_run_error": 4}
    assert data["summary"]["http_statuses"] == {"500": 4}
    assert data["summary"]["missing_rollouts"] == 4
    assert data["summary"]["missing_without_failure"] == 0
    json.dumps(data)  # serializable as is

    text = render_text(report)
    lines = text.splitlines()
    assert lines[0] == f"{PARTIAL}: model_serving. {finding.title}"
    assert f"   {FAILURES_FILE}:1: " in text
    assert "   Cause: " in text and "   Fix: " in text


def test_unwrap_nested_body_of_the_fixture():
    row = read_rows(PARTIAL / FAILURES_FILE)[0]
    nested = unwrap_inner_server_error(row["_ng_failure_response_body"])
    assert nested is not None
    assert nested.chain == (
        "SimpleAgent___string_match_simple_agent",
        "SimpleAgent___string_match_simple_agent",
        "VLLMModel___policy_model",
    )
    assert (nested.inner.kind, nested.inner.message) == ("BadRequestError", "injected failure")
    assert not nested.hidden
    # a body cut short still names the layers
    cut = unwrap_inner_server_error(row["_ng_failure_response_body"][:600])
    assert cut is not None and cut.innermost == "VLLMModel___policy_model"


def test_any_output_stem_is_found(tmp_path):
    run = tmp_path / "gym_out"
    run.mkdir()
    for name in (MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE, FAILURES_FILE, REWARD_PROFILE_FILE):
        shutil.copy(PARTIAL / name, run / name.replace("rollouts", "eval_b", 1))
    report = diagnose(run)
    assert report.category == "model_serving"
    assert report.findings[0].evidence[0].file == "eval_b_failures.jsonl"
    assert report.summary["stem"] == "eval_b"


# ---------------------------------------------------------------------------------------------
# Cache and resume: partial output, profiles.


def test_missing_rollouts_without_failures_is_cache_resume(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    rows = read_rows(run / ROLLOUTS_FILE)
    kept = [r for r in rows if not (r["_ng_task_index"] == 3 and r["_ng_rollout_index"] >= 2)]
    write_rows(run / ROLLOUTS_FILE, kept)
    # the profile was written before the rows were lost; re-profile it as Gym would for a consistent folder
    profile = [p for p in read_rows(run / REWARD_PROFILE_FILE)]
    for p in profile:
        if p["_ng_task_index"] == 3:
            p["num_rollouts"] = 2
    write_rows(run / REWARD_PROFILE_FILE, profile)

    report = diagnose(run)
    assert report.category == "cache_resume", finding_keys(report)
    finding = report.findings[0]
    assert "2 of 20 materialized rollouts have no result" in finding.title
    assert "[(3, 2), (3, 3)]" in finding.cause
    assert finding.evidence[0].file == MATERIALIZED_INPUTS_FILE
    assert finding.evidence[0].line == 15  # task 3, rollout 2
    assert "--resume" in finding.fix
    assert "++allow_partial_rollouts=True" in finding.fix
    assert len(report.findings) == 1


def test_missing_rollouts_and_no_sidecar_points_at_the_eval_log(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    (run / FAILURES_FILE).unlink()
    write_rows(run / ROLLOUTS_FILE, read_rows(run / ROLLOUTS_FILE)[:10])
    report = diagnose(run)
    assert report.category == "cache_resume"
    assert "route_failures_to_sidecar" in report.findings[0].cause
    # the profile counts 20 rollouts, the folder holds 10 now
    assert any("Stale reward profile" in f.title for f in report.findings)


def test_empty_profile_is_cache_resume(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    (run / REWARD_PROFILE_FILE).write_text("")
    report = diagnose(run)
    assert report.category == "cache_resume"
    [finding] = report.findings
    assert "profile is empty" in finding.title
    assert finding.evidence[0] == finding.evidence[0].model_copy(update={"file": REWARD_PROFILE_FILE})
    assert f"gym eval profile --inputs {run / MATERIALIZED_INPUTS_FILE} --rollouts {run / ROLLOUTS_FILE}" in finding.fix


def test_a_complete_run_not_profiled_yet_is_healthy_with_a_note(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    (run / REWARD_PROFILE_FILE).unlink()
    report = diagnose(run)
    assert report.category == "healthy" and report.healthy
    [note] = report.findings
    assert (note.role, note.title) == ("note", "Not profiled yet: 20 rollouts and no reward profile")
    assert "gym eval profile" in note.fix
    assert "Note: Not profiled yet" in render_text(report)


def test_strict_profile_log_is_cache_resume(tmp_path):
    shutil.copy(LOGS / "eval_profile_strict_missing_rollouts.log", tmp_path / "profile.log")
    report = diagnose(tmp_path)
    assert report.category == "cache_resume"
    [finding] = report.findings
    assert finding.evidence[0].file == "profile.log" and finding.evidence[0].line == 20
    assert "Missing rollout keys: [(2, 0), (2, 1), (2, 2), (2, 3)]" in finding.cause
    assert "++allow_partial_rollouts=True" in finding.fix


def test_strict_profile_log_in_the_partial_run_comes_after_the_model_error(tmp_path):
    run = copy_run(PARTIAL, tmp_path)
    (run / "logs").mkdir()
    shutil.copy(LOGS / "eval_profile_strict_missing_rollouts.log", run / "logs" / "profile.log")
    report = diagnose(run)
    assert [f.category for f in report.findings] == ["model_serving", "cache_resume"]
    assert report.findings[1].evidence[0].file == "logs/profile.log"
    assert "Every one of them has failed attempts" in report.findings[1].cause


def test_partial_profile_log_alone_is_cache_resume(tmp_path):
    shutil.copy(LOGS / "eval_profile_partial.log", tmp_path / "profile.log")
    report = diagnose(tmp_path)
    assert report.category == "cache_resume"
    assert "1 dropped without any rollout" in report.findings[0].title


# ---------------------------------------------------------------------------------------------
# Malformed files are evidence, not crashes.


def test_malformed_rollouts_line_is_data_schema(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    lines = (run / ROLLOUTS_FILE).read_text().splitlines(keepends=True)
    lines[2] = '{"reward": 1.0, "_ng_task_index": 0, \n'
    (run / ROLLOUTS_FILE).write_text("".join(lines))
    report = diagnose(run)
    assert report.category == "data_schema"
    finding = report.findings[0]
    assert finding.title.startswith(f"Malformed JSONL at {ROLLOUTS_FILE}:3")
    assert (finding.evidence[0].file, finding.evidence[0].line) == (ROLLOUTS_FILE, 3)
    assert "not valid JSON" in finding.cause
    assert report.summary["malformed_lines"] == {ROLLOUTS_FILE: 1}


def test_wrong_field_names_file_line_and_field(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    rows = read_rows(run / ROLLOUTS_FILE)
    rows[4]["_ng_task_index"] = "four"
    write_rows(run / ROLLOUTS_FILE, rows)
    finding = diagnose(run).findings[0]
    assert finding.category == "data_schema"
    assert finding.title == f"Malformed JSONL at {ROLLOUTS_FILE}:5 field '_ng_task_index'"


def test_torn_last_line_is_named_a_killed_write(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    data = (run / ROLLOUTS_FILE).read_bytes()
    (run / ROLLOUTS_FILE).write_bytes(data + b'{"responses_create_params": {"inp')
    finding = diagnose(run).findings[0]
    assert finding.category == "data_schema"
    assert "killed" in finding.cause
    assert "sed -i '21d'" in finding.fix


def test_collect_evidence_streams_counts(tmp_path):
    a = collect_evidence(PARTIAL).artifacts
    assert (a.materialized.rows, a.rollouts.rows, a.failures.rows, a.profile.rows) == (20, 16, 4, 4)
    assert a.missing_keys == [(2, 0), (2, 1), (2, 2), (2, 3)]
    assert a.missing_without_failure == []
    assert a.failure_kinds == {}


# ---------------------------------------------------------------------------------------------
# The sidecar: which layer failed.


def test_nested_error_from_a_resources_server_is_verifier_runtime(tmp_path):
    body = nested_body(
        ["SimpleAgent___string_match_simple_agent", "StringMatchResourcesServer___string_match"],
        b'"KeyError(\'expected_answer\')"',
    )
    run = partial_with_failures(tmp_path, [failure_row(2, r, _ng_failure_response_body=body) for r in range(4)])
    report = diagnose(run)
    assert report.category == "verifier_runtime", finding_keys(report)
    assert "KeyError('expected_answer')" in report.findings[0].title
    assert DEBUG_FLAG in report.findings[0].fix


def test_connection_refused_and_429_are_model_serving(tmp_path):
    rows = [
        failure_row(
            2, 0, _ng_failure_type="ClientConnectorError", _ng_failure_http_status=None,
            _ng_failure_message="Cannot connect to host 127.0.0.1:8000 ssl:default [Connection refused]",
            _ng_failure_class="agent_request_failed",
        ),
        failure_row(2, 1, _ng_failure_http_status=429, _ng_failure_message="429, message='Too Many Requests'"),
        failure_row(2, 2, _ng_failure_http_status=503, _ng_failure_message="503, message='Service Unavailable'"),
        failure_row(2, 3, _ng_failure_http_status=503, _ng_failure_message="503, message='Service Unavailable'"),
    ]
    report = diagnose(partial_with_failures(tmp_path, rows))
    assert report.category == "model_serving"
    [finding] = report.findings
    assert "unreachable" in finding.title
    assert "curl -s <model-url>/v1/models" in finding.fix
    assert {e.line for e in finding.evidence} == {1, 2, 3}


def test_verifier_500_and_422(tmp_path):
    rows = [
        failure_row(2, 0, _ng_failure_class="environment_server_failed", _ng_failure_message="500, verify raised"),
        failure_row(2, 1, _ng_failure_class="environment_server_failed", _ng_failure_message="500, verify raised"),
        failure_row(
            2, 2, _ng_failure_class="environment_server_failed", _ng_failure_http_status=422,
            _ng_failure_message="422, message='Unprocessable Entity'",
            _ng_failure_response_body='{"detail":[{"type":"missing","loc":["body","expected_answer"]}]}',
        ),
        failure_row(
            2, 3, _ng_failure_class="environment_server_failed", _ng_failure_http_status=422,
            _ng_failure_message="422, message='Unprocessable Entity'",
        ),
    ]
    report = diagnose(partial_with_failures(tmp_path, rows))
    assert [f.category for f in report.findings] == ["verifier_runtime", "data_schema"]
    assert "request body" in report.findings[1].title
    assert "request model" in report.findings[0].fix


def test_a_422_fix_names_the_field_and_type_the_request_model_wants(tmp_path):
    body = ('{"detail":[{"type":"int_parsing","loc":["body","max_score"],"msg":"Input should be a valid integer, '
            'unable to parse string as an integer","input":"ten"}]}')
    rows = [failure_row(2, r, _ng_failure_class="environment_server_failed", _ng_failure_http_status=422,
                        _ng_failure_message="422, message='Unprocessable Entity'", _ng_failure_response_body=body)
            for r in range(4)]
    report = diagnose(partial_with_failures(tmp_path, rows))
    assert report.category == "data_schema"
    fix = report.causes[0].fix
    assert ("The request model wants `max_score`: Input should be a valid integer, unable to parse string as an "
            "integer (got 'ten')") in fix
    assert "give every row `max_score` as it says" in fix


def test_failure_kinds_are_verifier_runtime_with_their_treatment(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    rows = read_rows(run / ROLLOUTS_FILE)
    for row in rows[:3]:
        row.update(failure_kind="harbor:missing_reward", failure_reason="no reward.txt", reward=0.0)
    rows[3].update(failure_kind="verifier_error", failure_reason="test.sh not found", mask_sample=True)
    write_rows(run / ROLLOUTS_FILE, rows)
    report = diagnose(run)
    assert report.category == "verifier_runtime"
    [finding] = report.findings
    assert "harbor:missing_reward x3" in finding.title and "verifier_error x1" in finding.title
    assert "scored as 0" in finding.cause and "masked" in finding.cause
    assert finding.evidence[0].file == ROLLOUTS_FILE and finding.evidence[0].line == 1
    assert report.summary["failure_kinds"] == {"harbor:missing_reward": 3, "verifier_error": 1}


# ---------------------------------------------------------------------------------------------
# Logs.


def test_python_version_prefetch_log_is_infra(tmp_path):
    shutil.copy(LOGS / "env_prefetch_python_version_unsatisfiable.log", tmp_path / "env_start.log")
    report = diagnose(tmp_path)
    assert report.category == "infra"
    [finding] = report.findings
    assert "Python 3.13 does not satisfy nemo-gym's Python>=3.13.14" in finding.title
    assert [e.line for e in finding.evidence] == [7, 8, 10]
    assert "uv python install 3.13.14" in finding.fix
    assert "++skip_venv_if_present=true" in finding.fix
    assert "/data/gym-run/run1/resources_servers/string_match/.venv" in finding.fix


@pytest.mark.parametrize(
    ("log", "category"),
    [
        ("env_start_ok.log", "healthy"),
        ("eval_run_ok.log", "healthy"),
        ("eval_profile_ok.log", "healthy"),
        ("eval_profile_partial.log", "cache_resume"),
        ("eval_profile_strict_missing_rollouts.log", "cache_resume"),
        ("env_prefetch_python_version_unsatisfiable.log", "infra"),
        ("eval_run_with_failures_routed_to_sidecar.log", "model_serving"),
    ],
)
def test_each_real_log_alone(tmp_path, log, category):
    (tmp_path / "logs").mkdir()
    shutil.copy(LOGS / log, tmp_path / "logs" / log)
    report = diagnose(tmp_path)
    assert report.category == category, finding_keys(report)


def test_sidecar_log_next_to_its_sidecar_adds_nothing(tmp_path):
    run = copy_run(PARTIAL, tmp_path)
    shutil.copy(LOGS / "eval_run_with_failures_routed_to_sidecar.log", run / "eval.log")
    shutil.copy(LOGS / "env_start_ok.log", run / "env.log")
    assert [f.category for f in diagnose(run).findings] == ["model_serving"]


def test_shutdown_noise_is_not_an_error(tmp_path):
    (tmp_path / "run.log").write_text(
        "All 4 / 4 servers ready! Polling every 60s\n"
        "^CTraceback (most recent call last):\n"
        '  File "/opt/gym/bin/gym", line 8, in <module>\n'
        "    sys.exit(main())\n"
        "KeyboardInterrupt\n"
        "(policy_model) INFO:     Shutting down\n"
        "(policy_model) ERROR:    Traceback (most recent call last):\n"
        "asyncio.exceptions.CancelledError\n"
    )
    assert diagnose(tmp_path).category == "healthy"


def test_unexplained_traceback_still_fails_the_run(tmp_path):
    (tmp_path / "run.log").write_text(
        "Starting `string_match` from venv /x/.venv\n"
        "(string_match) Traceback (most recent call last):\n"
        '(string_match)   File "app.py", line 12, in verify\n'
        "(string_match)     answer = body.expected_answer\n"
        "(string_match) AttributeError: 'VerifyRequest' object has no attribute 'expected_answer'\n"
        "(string_match) INFO:     Shutting down\n"
    )
    report = diagnose(tmp_path)
    assert report.category == "verifier_runtime"
    [finding] = report.findings
    assert finding.evidence[0].line == 5
    assert "AttributeError" in finding.title


def test_rate_limits_that_dominate_are_throughput_not_a_model_fault(tmp_path):
    rows = [failure_row(2, rollout, _ng_failure_http_status=429, _ng_failure_message="429, message='Too Many Requests'")
            for rollout in range(3)]
    rows.append(failure_row(2, 3, _ng_failure_http_status=503, _ng_failure_message="503, message='Service Unavailable'"))
    report = diagnose(partial_with_failures(tmp_path, rows))
    assert report.category == "throughput_resources"
    assert "rate limited" in report.causes[0].cause and "concurrency" in report.causes[0].fix


def test_a_spent_quota_is_not_overload(tmp_path):
    body = '{"error": {"message": "You exceeded your current quota", "type": "insufficient_quota"}}'
    rows = [failure_row(2, rollout, _ng_failure_http_status=429, _ng_failure_response_body=body,
                        _ng_failure_message="429, message='Too Many Requests'") for rollout in range(4)]
    assert diagnose(partial_with_failures(tmp_path, rows)).category != "throughput_resources"


def test_a_verify_response_the_model_refuses_is_verifier_runtime(tmp_path):
    body = ('"1 validation error for SimpleAgentVerifyResponse\\nreward\\n  Field required [type=missing, '
            'input_value={}, input_type=dict]"')
    rows = [failure_row(2, rollout, _ng_failure_response_body=body) for rollout in range(4)]
    report = diagnose(partial_with_failures(tmp_path, rows))
    assert report.category == "verifier_runtime"
    assert "`reward`" in report.causes[0].title and "`reward`" in report.causes[0].fix


def test_empty_materialized_inputs_are_data(tmp_path):
    from gym_pipeline.cli import main

    (tmp_path / "empty.jsonl").write_text("")
    run = tmp_path / "run"
    assert main(["materialize", "--input", str(tmp_path / "empty.jsonl"), "--num-repeats", "2", "--agent", "a",
                 "--output", str(run / "rollouts_materialized_inputs.jsonl")]) == 0
    report = diagnose(run)
    assert report.category == "data_schema" and "no rows" in report.causes[0].title


def test_empty_folder_is_not_healthy(tmp_path):
    report = diagnose(tmp_path)
    assert report.category == "config"
    assert "No NeMo Gym output" in report.findings[0].title


# ---------------------------------------------------------------------------------------------
# Secrets never reach a report.


def test_redact_forms():
    assert redact("--model-api-key sk-live-1234567890abcdef --x") == "--model-api-key *** --x"
    assert redact("--model-api-key=abc123secret") == "--model-api-key=***"
    assert redact("Authorization: Bearer eyJhbGciOi.JIUzI1NiJ9") == "Authorization: Bearer ***"
    assert redact("Authorization: Basic dXNlcjpwYXNz") == "Authorization: Basic ***"
    assert redact("api_key=hunter2hunter2&x=1") == "api_key=***&x=1"
    assert redact('{"api_key": "hunter2hunter2"}') == '{"api_key": "***"}'
    assert redact("++policy_api_key=hunter2hunter2") == "++policy_api_key=***"
    assert redact("OPENAI_API_KEY=abc123 gym env start") == "OPENAI_API_KEY=*** gym env start"
    assert redact("password=hunter2 user=me") == "password=*** user=me"
    assert redact("    password: ${dockerhub_password}") == "    password: ***}"
    assert redact("docker login -u me -p s3cr3t docker.io") == "docker login -u me -p *** docker.io"
    assert redact("echo x | podman login --password s3cr3t quay.io") == "echo x | podman login --password *** quay.io"
    assert redact("GET http://me:s3cr3t@127.0.0.1:8000/v1/models") == "GET http://me:***@127.0.0.1:8000/v1/models"
    assert redact("HF_TOKEN=hf_abcdefghijkl --hf-token tok123") == "HF_TOKEN=*** --hf-token ***"
    # what is not a secret stays
    for text in ("max_tokens=2048 total_tokens: 43", "--max-tokens 2048", "docker run -p 8000:8000 img",
                 "Generated new authentication token and saved to /home/user/.ray/auth_token",
                 "http://127.0.0.1:11000/server_instances"):
        assert redact(text) == text


def test_api_keys_are_redacted_everywhere(tmp_path):
    secrets = ["sk-proj-SECRETSECRET123", "bearer-token-XYZ987654", "plain-secret-key-42", "nvapi-ZZZZ99998888"]
    body = nested_body(
        ["SimpleAgent___a", "VLLMModel___policy_model"],
        json.dumps({"error": {"message": f"bad key api_key={secrets[2]}", "type": "AuthenticationError"}}).encode(),
    )
    rows = [
        failure_row(
            2, r,
            _ng_failure_message=f"500 Authorization: Bearer {secrets[1]} --model-api-key {secrets[0]}",
            _ng_failure_response_body=body,
        )
        for r in range(4)
    ]
    run = partial_with_failures(tmp_path, rows)
    (run / "env_start.log").write_text(
        f"gym env start --model-url http://127.0.0.1:8000/v1 --model-api-key {secrets[3]}\n"
        f"ERROR: failed to start policy_model with --model-api-key {secrets[3]}\n"
    )
    report = diagnose(run)
    assert report.category == "model_serving"
    dumped = json.dumps(report.to_json_dict()) + render_text(report)
    for secret in secrets:
        assert secret not in dumped
    assert "api_key=***" in dumped and "--model-api-key ***" in dumped


# ---------------------------------------------------------------------------------------------
# Writing the report.


def test_write_diagnosis_atomically(tmp_path):
    report = diagnose(PARTIAL)
    path = write_diagnosis(report, tmp_path)
    assert path == tmp_path / "diagnosis.json"
    assert json.loads(path.read_text()) == report.to_json_dict()
    assert sorted(p.name for p in tmp_path.iterdir()) == [LOCK_FILE, "diagnosis.json"]
    other = write_diagnosis(report, tmp_path / "sub" / "d.json")
    assert other.exists()
    # a diagnosis.json inside the run folder does not change the next diagnosis
    run = copy_run(PARTIAL, tmp_path, "again")
    before = diagnose(run).to_json_dict()
    write_diagnosis(diagnose(run), run)
    assert (run / "diagnosis.json").exists()
    assert diagnose(run).to_json_dict() == before


def test_finding_model_redacts_its_own_text():
    finding = Finding(
        category="config",
        title="key api_key=abcdefgh123",
        evidence=[],
        cause="Bearer abcdefgh123",
        fix="`gym env start --model-api-key abcdefgh123`",
    )
    assert "abcdefgh123" not in finding.model_dump_json()


def test_gym_output_in_a_results_subfolder(tmp_path):
    copy_run(PARTIAL, tmp_path, "results")
    shutil.copy(LOGS / "env_start_ok.log", tmp_path / "env.log")
    report = diagnose(tmp_path)
    assert report.category == "model_serving"
    assert report.findings[0].evidence[0].file == f"results/{FAILURES_FILE}"
    assert report.summary["log_files"] == ["env.log"]


def test_a_log_error_of_an_earlier_attempt_is_a_note_when_the_outputs_are_complete(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    (run / "collect_first_attempt.log").write_text(
        "error: model endpoint http://127.0.0.1:9/v1/models did not answer after 3 attempts: Cannot connect to host "
        "127.0.0.1:9 ssl:default [Connect call failed ('127.0.0.1', 9)]\n")
    report = diagnose(run)
    assert report.healthy
    assert any(f.role == "note" and f.title.startswith("Only a log shows it") for f in report.findings)


def test_error_line_and_its_traceback_are_one_incident(tmp_path):
    (tmp_path / "env.log").write_text(
        "(string_match) ERROR:    Exception in ASGI application\n"
        "(string_match) Traceback (most recent call last):\n"
        '(string_match)   File "app.py", line 40, in verify\n'
        "(string_match) ValueError: could not parse the boxed answer\n"
    )
    [finding] = diagnose(tmp_path).findings
    assert finding.category == "verifier_runtime"
    assert (finding.evidence[0].line, finding.evidence[0].text) == (
        4,
        "(string_match) ValueError: could not parse the boxed answer",
    )
    assert "env.log:1-4" in finding.cause


def test_an_unexplained_error_is_placed_by_who_it_failed_to_reach(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    (run / REWARD_PROFILE_FILE).unlink()  # only a note: the run is complete, just not profiled
    refused = (
        "Traceback (most recent call last):\n"
        '  File "client.py", line 3, in post\n'
        "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 127.0.0.1:8000 ssl:default "
        "[Connection refused]\n"
    )
    (run / "eval.log").write_text("SIMULATED_POLICY_READY http://127.0.0.1:8000/v1\n" + refused)
    rollouts = (run / ROLLOUTS_FILE).read_text().splitlines(keepends=True)
    (run / ROLLOUTS_FILE).write_text("".join(rollouts[:-1]))  # the collection did not finish
    report = diagnose(run)
    first = report.findings[0]
    assert (first.category, first.role) == ("model_serving", "cause")
    assert first.title.startswith("First unexplained error in eval.log")
    assert "connection refused by the model server at port 8000 (named in eval.log:1)" in first.cause
    assert "guess" not in first.cause
    assert "eval.log:2-4 (raised at client.py:3 in post)" in first.fix

    # nothing in the run says who listens at 8000: still placed, and said to be a guess
    (run / "eval.log").write_text(refused)
    first = diagnose(run).findings[0]
    assert first.category == "infra" and "as a guess: connection refused at port 8000" in first.cause


def test_a_resume_over_edited_data_is_caught_in_a_gym_folder_without_a_manifest(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    source = run / "input_example.jsonl"
    rows = [json.loads(line) for line in source.read_text().splitlines()]
    rows[1]["expected_answer"] = "75"  # edited after the inputs were materialized
    source.write_text("".join(json.dumps(row) + "\n" for row in rows))
    built = (run / MATERIALIZED_INPUTS_FILE).stat().st_mtime
    os.utime(source, (built + 60, built + 60))
    os.utime(run / ROLLOUTS_FILE, (built + 120, built + 120))  # a resume wrote rollouts after the edit
    report = diagnose(run)
    assert report.category == "cache_resume"
    top = report.causes[0]
    assert top.title.startswith("Stale materialized inputs")
    assert "1 task changed" in top.cause and "a resume (`--resume`, resume_from_cache)" in top.cause
    assert "without --resume: `gym eval run --no-serve --agent string_match_simple_agent --input" in top.fix
    assert "--num-repeats 4" in top.fix


def test_another_dataset_beside_a_gym_run_is_not_taken_for_its_source(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    (run / "input_example.jsonl").unlink()
    other = {"responses_create_params": {"input": "something else entirely"}, "expected_answer": "x"}
    (run / "other_dataset.jsonl").write_text(json.dumps(other) + "\n")
    assert diagnose(run).healthy


def test_a_rule_that_raises_costs_its_own_findings_with_a_note_not_the_report(tmp_path):
    from gym_pipeline.diagnose.findings import Rule
    from gym_pipeline.diagnose.rules import run_rules

    def broken(ev):
        raise KeyError("a field this rule did not expect to miss")

    run = copy_run(PARTIAL, tmp_path)
    expected = run_rules(collect_evidence(run))
    findings = run_rules(collect_evidence(run), [Rule(1, "broken", broken), *RULES])
    note = next(f for f in findings if f.id == "broken")
    assert note.role == "note" and "KeyError" in note.title and "the other rules ran" in note.title
    assert [f.id for f in findings if f.role != "note"] == [f.id for f in expected if f.role != "note"]


def test_a_rule_that_raises_on_a_folder_with_no_cause_leaves_the_verdict_incomplete_not_healthy(tmp_path, monkeypatch,
                                                                                               capsys):
    from gym_pipeline.cli import EXIT_DIAGNOSIS_INCOMPLETE, main
    from gym_pipeline.diagnose.findings import Rule

    def broken(ev):
        raise KeyError("a field this rule did not expect to miss")

    from gym_pipeline.diagnose import report as report_module
    from gym_pipeline.diagnose.rules import run_rules

    run = copy_run(CLEAN, tmp_path)
    monkeypatch.setattr(report_module, "run_rules", lambda ev: run_rules(ev, [Rule(1, "broken", broken), *RULES]))

    report = diagnose(run)

    assert report.healthy and report.rules_failed == ["broken"]
    assert report.headline == "no cause found, but the diagnosis is incomplete (broken failed)"
    assert read_diagnosis(write_diagnosis(report, run)).rules_failed == ["broken"]
    assert main(["diagnose", str(run)]) == EXIT_DIAGNOSIS_INCOMPLETE
    assert "no cause found, but the diagnosis is incomplete: 1 rule failed on this folder (broken)" in \
        capsys.readouterr().out


def test_an_error_line_only_its_words_place_is_a_note_in_a_complete_run_and_a_placed_one_is_not(tmp_path):
    run = copy_run(CLEAN, tmp_path)
    log = run / "eval_run.log"
    log.write_text("Error: division by zero is undefined, so the answer is none\n")

    report = diagnose(run)

    assert report.healthy, [f.title for f in report.causes]
    [note] = [f for f in report.notes if "division by zero" in f.title]
    assert note.title.startswith("Only a log shows it, and the outputs are complete")
    log.write_text("(my_resources_server) ERROR: judge unreachable, every answer scored 0\n")
    assert diagnose(run).category == "verifier_runtime"  # the server it came from places it


def test_inputs_materialized_from_the_first_rows_of_their_data_are_noted():
    run = (Path(__file__).parent / "data" / "diagnosis_corpus" / "ninth_held_out" /
           "cache_resume_builtin_full_run_on_smoke_test_inputs" / "run")
    note = next(f for f in diagnose(run).findings if f.id == "limited_inputs")
    assert note.role == "note" and "first 3 of the data's 12 rows" in note.title and "without the limit" in note.fix


def _run_job_script(run: Path, body: str) -> None:
    """A user's job script in `run`, run by bash with its output in run/job.log, as a batch job keeps it."""
    import subprocess

    run.mkdir(parents=True, exist_ok=True)
    (run / "job.sh").write_text(f"#!/bin/bash\n{body}\necho \"exit code $?\"\n")
    with (run / "job.log").open("w") as log:
        subprocess.run(["bash", "job.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, check=False)


def test_a_stack_limit_given_as_megabytes_is_the_cause_of_the_crash_the_shell_reports(tmp_path):
    run = tmp_path / "run"
    _run_job_script(run, "ulimit -s 16  # 16 MB for the tokenizer threads\npython3 -c 'print(1)'")

    report = diagnose(run)

    top = report.causes[0]
    assert report.category == "infra" and top.id == "process_limits", [f.title for f in report.causes]
    assert "`ulimit -s 16`" in top.title and "ulimit -s 16384" in top.fix
    # bash reports the crash most times (`job.sh: line 3: 42 Segmentation fault python3 ...`), and the script's
    # `exit code 139` always does
    [crash] = report.consequences_of(top)
    assert crash.id == "shell_reported_signal" and ("Segmentation fault" in crash.title or "SIGSEGV" in crash.title)


def test_a_command_the_shell_reports_killed_by_a_signal_is_the_cause_when_nothing_explains_it(tmp_path):
    run = tmp_path / "run"
    _run_job_script(run, "python3 -c 'import os, signal; os.kill(os.getpid(), signal.SIGKILL)'")

    report = diagnose(run)

    top = report.causes[0]
    assert (report.category, top.id) == ("throughput_resources", "shell_reported_signal"), render_text(report)
    assert top.title.startswith("`python3` was ended by a signal (Killed) at line 2 of job.sh")
