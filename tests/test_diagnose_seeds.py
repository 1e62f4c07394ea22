"""Every entry of the debugging guide (seeds/000) and the task-folder troubleshooting page (seeds/004).

Each case is a log or run folder that shows the entry's exact message (tests/data/diagnose/, real
Gym 0.7.0 output from the shared fixtures where it exists), diagnosed as a run folder would be.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES

from gym_pipeline.core.formats import FAILURES_FILE, MATERIALIZED_INPUTS_FILE, REWARD_PROFILE_FILE, ROLLOUTS_FILE
from gym_pipeline.diagnose import diagnose, render_text

DATA = Path(__file__).parent / "data" / "diagnose"
CLEAN, PARTIAL, LOGS = FIXTURES / "clean_run", FIXTURES / "partial_run_with_failures", FIXTURES / "logs"
DEBUG_FLAG = "++global_aiohttp_client_request_debug=True"


def run_with_log(tmp_path: Path, name: str, source: Path | None = None) -> Path:
    (tmp_path / "logs").mkdir(exist_ok=True)
    shutil.copy(source or DATA / name, tmp_path / "logs" / name)
    return tmp_path


def copy_run(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def write_rows(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def failure(task: int, rollout: int, **fields) -> dict:
    row = {
        "_ng_failure_class": "agent_run_error", "_ng_failure_type": "ClientResponseError",
        "_ng_failure_message": "500, message='Internal Server Error', url='http://127.0.0.1:12228/run'",
        "_ng_failure_http_status": 500, "_ng_failure_response_body": None,
        "_ng_task_index": task, "_ng_rollout_index": rollout, "agent_ref": {"name": "string_match_simple_agent"},
    }
    return row | fields


def nested_body(chain: list[str], inner: bytes) -> str:
    """A body as Gym's exception middleware nests it: each layer a JSON string around a bytes repr."""
    body = inner
    for server in reversed(chain):
        body = json.dumps(f"Hit an exception in {server} calling an inner server: {body!r}").encode()
    return body.decode()


# ---------------------------------------------------------------------------------------------
# seeds/004: one entry, one log of its messages.

SEED_004_LOGS = [
    # (file, category, words of the title, words of the fix)
    ("docker_hub_429.log", "infra", "Docker Hub answered 429", "docker login"),
    ("docker_build_toomanyrequests.log", "infra", "Docker Hub answered 429", "Run config written to"),
    ("task_not_loadable.log", "config", "Some tasks could not load", "--skip-unloadable"),
    ("validate_skipped.log", "config", "Some tasks could not load", "--exclude-tasks"),
    ("no_task_loads.log", "config", "No task of datasets/my_tasks loads", "gym dataset validate"),
    ("no_result.log", "infra", "None of the 12 dispatched rollouts produced a result", "--sandbox <provider>"),
    ("harness_not_allowed.log", "config", "allowed_agents admits ['terminus_2', 'oracle']",
     "--allow-unsupported-pairing"),
    ("image_platform.log", "infra", "image platform does not match", "platform.arch=amd64"),
    ("no_image_builder.log", "config", "without a repository", "NEMO_GYM_BUILD_REPOSITORY"),
    ("harness_install.log", "infra", "could not install its runtime", "sandbox_install_timeout_seconds"),
    ("uv_missing.log", "config", "uv is not on the agent host's PATH", "command -v uv"),
    ("time_budget.log", "throughput_resources", "ran past their time budget", "timeout_multiplier"),
    ("opensandbox_compose.log", "config", "Compose task cannot start on OpenSandbox", "networking.enabled=true"),
    ("task_folder_changed.log", "cache_resume", "task folder changed", "gym dataset pull"),
    ("earlier_fetch.log", "cache_resume", "holds an earlier fetch", "Move datasets/terminal_bench aside"),
    ("conflicting_metrics.log", "cache_resume", "Found conflicting aggregate metrics",
     "delete the _metrics.json the error names (results/harbor/terminal_bench/rollouts_aggregate_metrics.json)"),
    ("run_directory_in_use.log", "cache_resume", "Two runs on one run directory", "its own checkout"),
]


@pytest.mark.parametrize(("log", "category", "title", "fix"), SEED_004_LOGS, ids=[c[0] for c in SEED_004_LOGS])
def test_seed_004_entry_from_its_message(tmp_path, log, category, title, fix):
    report = diagnose(run_with_log(tmp_path, log))
    assert report.category == category, [f.title for f in report.findings]
    finding = report.findings[0]
    assert title.lower() in finding.title.lower()
    assert fix in finding.fix
    assert finding.evidence and all(e.file == f"logs/{log}" for e in finding.evidence)
    assert len(report.findings) == 1, [f.title for f in report.findings]  # the message is explained, not repeated


def test_task_folder_run_reads_skipped_json_run_summary_and_verifier_output():
    report = diagnose(DATA / "task_folder_run")
    titles = [f.title for f in report.findings]
    assert report.category == "infra", titles
    docker, unloadable, overwrite, sidecar = report.findings
    # Docker Hub 429, proven by a task's failure message in the run summary and a skip reason
    assert "Docker Hub answered 429" in docker.title
    assert {e.file for e in docker.evidence} == {
        "results/harbor/terminal_bench/rollouts_run_summary.json", "results/harbor/terminal_bench/skipped.json"}
    # a task does not load: skipped.json's reasons, one line each
    assert unloadable.title == "Some tasks could not load"
    assert [e.text.split(":")[0] for e in unloadable.evidence] == ["fix-git", "qemu-startup"]
    assert [e.line for e in unloadable.evidence] == [2, 3]
    # two runs on one checkout: the run summary's stale_files
    assert "overwrite each other" in overwrite.title and "2 stale files" in overwrite.title
    assert overwrite.category == "cache_resume" and overwrite.evidence[0].line == 3
    assert "NEMO_GYM_DATASETS_DIR" in overwrite.fix
    # a sidecar's file in /logs/verifier is gone: the verifier's own output says which
    assert sidecar.category == "verifier_runtime"
    assert "/logs/verifier/actions.jsonl" in sidecar.title
    assert 'inputs = ["actions.jsonl"]' in sidecar.fix
    assert sidecar.evidence[0].file.endswith("verifier/fix-git/test-stdout.txt")


def test_sandbox_cannot_reach_the_model_server(tmp_path):
    run = copy_run(PARTIAL, tmp_path / "run")
    rows = [failure(2, r, _ng_failure_class="agent_request_failed", _ng_failure_type="ClientConnectorError",
                    _ng_failure_http_status=None, _ng_failure_stage="agent", agent_ref={"name": "hermes_agent"},
                    _ng_failure_message="Cannot connect to host 192.0.2.10:14690 ssl:default "
                                        "[Connect call failed ('192.0.2.10', 14690)]")
            for r in range(4)]
    write_rows(run / FAILURES_FILE, rows)
    report = diagnose(run)
    assert report.category == "infra", [f.title for f in report.findings]
    finding = report.findings[0]
    assert "sandbox cannot reach the Model Server" in finding.title
    assert "hermes_agent" in finding.cause and "stage agent" in finding.cause
    assert "absolute_ip_server_types" in finding.fix and "--resume" in finding.fix


def test_reward_missing_or_invalid_with_its_scored_masked_retried_meaning(tmp_path):
    run = copy_run(CLEAN, tmp_path / "run")
    rows = read_rows(run / ROLLOUTS_FILE)
    rows[0].update(failure_kind="harbor:missing_reward", failure_reason="test.sh wrote no reward", reward=0.0)
    rows[1].update(failure_kind="harbor:invalid_reward", failure_reason="reward.txt: 'nan'", reward=0.0)
    rows[2].update(failure_kind="harbor:trajectory_export_failed", failure_reason="disk", mask_sample=True)
    rows[3].update(failure_kind="provider_unavailable", failure_reason="sandbox gone", mask_sample=True)
    write_rows(run / ROLLOUTS_FILE, rows)
    report = diagnose(run)
    [finding] = report.findings
    assert finding.category == "verifier_runtime"
    for kind in ("harbor:missing_reward", "harbor:invalid_reward", "harbor:trajectory_export_failed",
                 "provider_unavailable"):
        assert f"{kind} x1" in finding.title
    assert "harbor:missing_reward x1 (test.sh wrote neither reward.txt nor reward.json" in finding.cause
    assert "; scored as 0;" in finding.cause and "; masked;" in finding.cause
    assert "gym dataset validate" in finding.fix and "test-stdout.txt" in finding.fix


def test_verifier_timeout_and_task_deadline_rows(tmp_path):
    run = copy_run(CLEAN, tmp_path / "run")
    rows = read_rows(run / ROLLOUTS_FILE)
    rows[0].update(failure_kind="harbor:verifier_timeout", reward=0.0)
    rows[1].update(failure_kind="harbor:task_deadline", failure_reason="Episode exceeded the time budget of task t0")
    write_rows(run / ROLLOUTS_FILE, rows)
    shutil.copy(DATA / "time_budget.log", run / "eval.log")
    report = diagnose(run)
    [finding] = report.findings  # the log's lines are cited by the rows' finding, not repeated
    assert finding.category == "throughput_resources"
    assert "harbor:verifier_timeout x1" in finding.title and "harbor:task_deadline x1" in finding.title
    assert "scored as 0" in finding.cause and "retried" in finding.cause
    assert "timeout_multiplier" in finding.fix and "default_episode_timeout_seconds" in finding.fix
    assert any(e.file == "eval.log" for e in finding.evidence)


def test_multi_step_task_stops_at_a_step(tmp_path):
    run = copy_run(PARTIAL, tmp_path / "run")
    # the first step failed: no agent ran, the sidecar holds the episode with its failure_kind
    write_rows(run / FAILURES_FILE, [failure(2, r, _ng_failure_class="environment_server_failed",
                                             _ng_failure_http_status=None, _ng_failure_stage="seed",
                                             failure_kind="harbor:step_setup_failed",
                                             _ng_failure_message="workdir/setup.sh exited 1")
                                     for r in range(4)])
    # a later step failed: the row's turn carries the kind and stopped_after_turn names the step
    rows = read_rows(run / ROLLOUTS_FILE)
    rows[0].update(turns=[{"step": 1, "reward": 1.0}, {"step": 2, "failure_kind": "harbor:step_healthcheck_failed"}],
                   stopped_after_turn=2)
    write_rows(run / ROLLOUTS_FILE, rows)
    report = diagnose(run)
    step = next(f for f in report.findings if "multi-step" in f.title)
    assert step.category == "verifier_runtime"
    assert "harbor:step_setup_failed x4" in step.title and "harbor:step_healthcheck_failed x1" in step.title
    assert "4 of them failed at the first step" in step.cause
    assert any("stopped_after_turn=2" in e.text for e in step.evidence)
    assert "gym dataset validate <task>" in step.fix


# ---------------------------------------------------------------------------------------------
# seeds/000: the high-value suspects (stale inputs: see test_diagnose_runs.py).


def test_a_few_rollout_rows_and_an_empty_profile(tmp_path):
    run = copy_run(CLEAN, tmp_path / "run")
    write_rows(run / ROLLOUTS_FILE, read_rows(run / ROLLOUTS_FILE)[:3])
    (run / REWARD_PROFILE_FILE).write_text("")
    report = diagnose(run)
    assert report.category == "cache_resume"
    titles = [f.title for f in report.findings]
    assert titles[0].startswith("17 of 20 materialized rollouts have no result")
    assert "The reward profile is empty while 3 rollouts exist" in titles
    empty = report.findings[titles.index("The reward profile is empty while 3 rollouts exist")]
    assert "verifier errors and the partial-output cache" in empty.cause
    assert "++allow_partial_rollouts=True" in empty.fix


def test_verifier_500_with_all_servers_ready_points_at_the_request_schema(tmp_path):
    run = copy_run(PARTIAL, tmp_path / "run")
    write_rows(run / FAILURES_FILE, [failure(2, r, _ng_failure_class="environment_server_failed",
                                             _ng_failure_message="500, message='Internal Server Error', "
                                                                 "url='http://127.0.0.1:16591/verify'")
                                     for r in range(4)])
    shutil.copy(LOGS / "env_start_ok.log", run / "env_start.log")
    [finding] = diagnose(run).findings
    assert finding.category == "verifier_runtime"
    assert "with all servers ready (4 / 4), so not infra" in finding.cause
    assert finding.fix.startswith("Inspect the request body schema before infra")
    assert any(e.file == MATERIALIZED_INPUTS_FILE and "row fields" in e.text for e in finding.evidence)
    assert any(e.file == "env_start.log" and "4 / 4 servers ready" in e.text for e in finding.evidence)


def test_verifier_422_is_checked_against_the_failing_row(tmp_path):
    run = copy_run(PARTIAL, tmp_path / "run")
    rows = read_rows(run / MATERIALIZED_INPUTS_FILE)
    for row in rows:
        if row["_ng_task_index"] == 2:
            row.pop("expected_answer")
    write_rows(run / MATERIALIZED_INPUTS_FILE, rows)
    body = json.dumps({"detail": [{"type": "missing", "loc": ["body", "expected_answer"], "msg": "Field required"}]})
    write_rows(run / FAILURES_FILE, [failure(2, r, _ng_failure_class="environment_server_failed",
                                             _ng_failure_http_status=422, _ng_failure_response_body=body,
                                             _ng_failure_message="422, message='Unprocessable Entity'")
                                     for r in range(4)])
    [finding] = diagnose(run).findings
    assert finding.category == "data_schema"
    assert "(HTTP 422): missing: body.expected_answer" in finding.title
    assert "The failing row lacks `expected_answer`" in finding.cause
    assert (finding.evidence[-1].file, finding.evidence[-1].line) == (MATERIALIZED_INPUTS_FILE, 9)
    assert "jq 'keys'" in finding.fix


def test_tool_env_that_hangs(tmp_path):
    run = copy_run(PARTIAL, tmp_path / "run")
    rows = read_rows(run / MATERIALIZED_INPUTS_FILE)
    for row in rows:
        row["responses_create_params"]["tools"] = [{"type": "function", "name": "search", "parameters": {}}]
    write_rows(run / MATERIALIZED_INPUTS_FILE, rows)
    write_rows(run / FAILURES_FILE, [failure(2, r, _ng_failure_class="timeout_exceeded", _ng_failure_type="TimeoutError",
                                             _ng_failure_http_status=None, _ng_failure_message="")
                                     for r in range(4)])
    [finding] = diagnose(run).findings
    assert finding.category == "config"
    assert "A tool environment hangs" in finding.title and "(20 such rows)" in finding.title
    assert "tool no server owns or loads" in finding.cause
    assert "server_instances" in finding.fix and "check sandbox readiness only if" in finding.fix


def test_vllm_tool_call_grammar_error_from_the_model_log(tmp_path):
    report = diagnose(run_with_log(tmp_path, "vllm_xgrammar.log"))
    [finding] = report.findings
    assert finding.category == "data_schema"
    assert finding.title == "vLLM rejected a tool-call schema before generation"
    assert finding.evidence[0].text.startswith("ValueError: The provided JSON schema contains features not supported")
    assert "static tool-schema check before changing Gym wrappers" in finding.fix


def test_vllm_tool_choice_error_inside_nested_500s(tmp_path):
    run = copy_run(PARTIAL, tmp_path / "run")
    inner = json.dumps({"object": "error", "type": "BadRequestError", "code": 400, "message":
                        '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'})
    body = nested_body(["SimpleAgent___string_match_simple_agent", "VLLMModel___policy_model"], inner.encode())
    write_rows(run / FAILURES_FILE, [failure(2, r, _ng_failure_response_body=body) for r in range(4)])
    [finding] = diagnose(run).findings
    assert finding.category == "model_serving"
    assert finding.title == "vLLM refuses tool calls: it was started without a tool-call parser"
    assert "--enable-auto-tool-choice --tool-call-parser" in finding.fix
    assert "keys [(2, 0), (2, 1), (2, 2), (2, 3)]" in finding.cause
    assert "--resume" in finding.fix


def test_nested_inner_server_500s_with_the_real_body_hidden(tmp_path):
    report = diagnose(run_with_log(tmp_path, "inner_server_hidden.log"))
    [finding] = report.findings
    assert finding.category == "model_serving"
    assert finding.title.endswith("(VLLMModel___policy_model): the real body is hidden")
    assert DEBUG_FLAG in finding.fix and finding.fix.startswith("Enable the existing request-boundary visibility")


def test_nested_500s_in_the_sidecar_with_a_generic_inner_body(tmp_path):
    run = copy_run(PARTIAL, tmp_path / "run")
    body = nested_body(["SimpleAgent___string_match_simple_agent", "VLLMModel___policy_model"], b"Internal Server Error")
    write_rows(run / FAILURES_FILE, [failure(2, r, _ng_failure_response_body=body) for r in range(4)])
    [finding] = diagnose(run).findings
    assert finding.category == "model_serving"
    assert "1. The real body is hidden: enable the real request and response" in finding.fix
    assert DEBUG_FLAG in finding.fix


# ---------------------------------------------------------------------------------------------
# Infrastructure signatures and what real Gym 0.7.0 prints.

INFRA_LOGS = [
    ("slurm_time_limit.out", "infra", "Slurm killed job 81234 at its time limit", "sacct -j 81234"),
    ("slurm_oom.out", "infra", "running out of memory", "--mem"),
    ("ray_actor_died.log", "infra", "Ray lost a worker or a node", "ray status"),
    ("address_in_use.log", "infra", "address already in use", "ss -ltnp"),
    ("disk_full.log", "infra", "The file system is full", "df -h"),
    ("vllm_cuda_oom.log", "model_serving", "ran out of GPU memory", "--gpu-memory-utilization"),
    ("hydra_override.log", "config", "config overrides do not fit", "++policy_modle=<value>"),
]


@pytest.mark.parametrize(("log", "category", "title", "fix"), INFRA_LOGS, ids=[c[0] for c in INFRA_LOGS])
def test_infrastructure_signatures(tmp_path, log, category, title, fix):
    report = diagnose(run_with_log(tmp_path, log))
    assert report.category == category, [f.title for f in report.findings]
    assert title in report.findings[0].title and fix in report.findings[0].fix


def test_engine_failure_comes_after_its_root_cause(tmp_path):
    report = diagnose(run_with_log(tmp_path, "vllm_cuda_oom.log"))
    assert [f.title for f in report.findings] == ["The model server ran out of GPU memory", "vLLM's engine failed to start"]


def test_real_error_wins_over_the_shutdown_tracebacks_after_it(tmp_path):
    report = diagnose(run_with_log(tmp_path, "verifier_crash_then_ctrl_c.log"))
    [finding] = report.findings
    assert finding.category == "verifier_runtime"
    assert finding.evidence[0].line == 61
    assert finding.evidence[0].text == "(string_match) AttributeError: 'NoneType' object has no attribute 'strip'"
    assert "logs/verifier_crash_then_ctrl_c.log:55-61" in finding.cause
    assert "KeyboardInterrupt" not in render_text(report) and "Session is closed" not in render_text(report)
