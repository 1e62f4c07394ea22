"""Our own run folders: a healthy one stays healthy; stale inputs, cut-short collections and launcher states
are read from the manifest and the launcher's record; a failed Dagster run is diagnosed from its error."""

from __future__ import annotations

import asyncio
import csv
import json
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import dagster as dg
import pytest

from gym_pipeline.config import ModelServerConfig
from gym_pipeline.core.fingerprint import file_digest
from gym_pipeline.core.formats import MATERIALIZED_INPUTS_FILE, ROLLOUTS_FILE
from gym_pipeline.core.manifest import COLLECTING, ROLLOUTS_STAGE, read_manifest, record_stage
from gym_pipeline.core.materialize import MaterializationSettings, materialize_and_record, materialize_file
from gym_pipeline.core.profile import profile_run, write_profile
from gym_pipeline.diagnose import diagnose, diagnose_failed_run, read_diagnosis, render_text, write_diagnosis
from gym_pipeline.engines.builtin import CollectorSettings, collect
from gym_pipeline.environments import get_environment
from gym_pipeline.launchers.state import STOPPED_AFTER_SERVING, LauncherState, write_launcher_state
from gym_pipeline.serving.servers import serve_checkpoint
from gym_pipeline.serving.simulated_policy import READY_PREFIX

ENV = "string_match"
REPEATS = 2
DATA = Path(__file__).parent / "data" / "diagnose"


@pytest.fixture(scope="module")
def collected_run(policy_endpoint, tmp_path_factory) -> Path:
    """A run folder as the sweep writes it: manifest, materialized inputs, rollouts, sidecar, profile, logs."""
    root = tmp_path_factory.mktemp("home")
    environment = get_environment(ENV)
    data = root / "data" / f"{ENV}.jsonl"
    data.parent.mkdir()
    shutil.copy(environment.dataset_path, data)
    run = root / "runs" / "step_0100" / ENV
    inputs, rollouts = run / MATERIALIZED_INPUTS_FILE, run / ROLLOUTS_FILE
    materialize_and_record(data, inputs, MaterializationSettings(REPEATS, environment.agent_name))
    (run / "logs").mkdir()
    (run / "logs" / "model_server.log").write_text(f"{READY_PREFIX} {policy_endpoint.url}\n")
    asyncio.run(collect(inputs, rollouts, environment, CollectorSettings(model_url=policy_endpoint.url, concurrency=16)))
    with warnings.catch_warnings():  # Gym's statistics warnings, as the reward_profile asset silences them
        warnings.simplefilter("ignore")
        write_profile(profile_run(inputs, rollouts, allow_partial=True), rollouts)
    record_stage(run, "reward_profile", {"inputs": {"materialized": file_digest(inputs), "rollouts": file_digest(rollouts)}})
    return run


@pytest.fixture
def run(collected_run, tmp_path) -> Path:
    """A private copy (data folder included) that a test may break."""
    home = tmp_path / "home"
    shutil.copytree(collected_run.parents[2], home)
    copy = home / "runs" / "step_0100" / ENV
    manifest = (copy / "manifest.json").read_text().replace(str(collected_run.parents[2]), str(home))
    (copy / "manifest.json").write_text(manifest)
    return copy


def data_of(run: Path) -> Path:
    return Path(read_manifest(run)["materialized_inputs"]["source"]["path"])


def test_a_healthy_run_of_ours_stays_healthy(run):
    report = diagnose(run)
    assert report.category == "healthy", [f.title for f in report.findings]
    assert report.summary["log_files"] == ["logs/model_server.log"]
    assert report.summary["stale_inputs"] == []
    text = render_text(report)
    assert text.startswith(f"{run}: healthy. 174 materialized rollouts (87 tasks), 174 rollouts, 0 failed attempts")
    assert report.headline == "healthy"


def test_data_changed_after_materialization_is_stale_inputs(run):
    data = data_of(run)
    lines = data.read_text().splitlines(keepends=True)
    data.write_text("".join(lines + [lines[0].replace("{", '{"note": "new", ', 1)]))
    report = diagnose(run)
    assert report.category == "cache_resume"
    finding = report.findings[0]
    assert finding.title == f"Stale materialized inputs: their source {data} changed since they were built"
    assert "1 task added" in finding.cause and "176 from the data now" in finding.cause
    assert "Gym never checks" in finding.cause
    assert f"gym-pipeline check-stale --inputs {run / MATERIALIZED_INPUTS_FILE} --source {data}" in finding.fix
    assert "gym-pipeline materialize --input" in finding.fix and "without --resume" in finding.fix
    assert finding.evidence[0].file == "manifest.json" and finding.evidence[0].line is not None
    assert any(e.file == MATERIALIZED_INPUTS_FILE for e in finding.evidence)  # the first differing row


def test_source_gone_is_a_note_on_a_finished_run(run):
    data_of(run).unlink()
    report = diagnose(run)
    assert report.healthy
    [note] = report.findings
    assert note.role == "note" and "is gone: whether the inputs are still fresh cannot be checked" in note.title


def test_rollouts_on_inputs_that_changed_since(run):
    materialize_file(data_of(run), run / MATERIALIZED_INPUTS_FILE,
                     MaterializationSettings(REPEATS + 1, get_environment(ENV).agent_name))
    report = diagnose(run)
    titles = [f.title for f in report.findings]
    assert titles[0] == "Rollouts were collected on materialized inputs that changed since", titles
    assert "changed since these rollouts were collected" in report.findings[0].cause
    # the profile read the old files too
    assert any(t.startswith("Stale reward profile: it was computed from other files") for t in titles)


def test_rollouts_answering_other_prompts_than_their_inputs_without_a_manifest_to_say_so(run):
    """Inputs made again from reordered data over kept rollouts, in a folder of Gym's (no manifest of ours)."""
    data = data_of(run)
    data.write_text("".join(reversed(data.read_text().splitlines(keepends=True))))
    materialize_file(data, run / MATERIALIZED_INPUTS_FILE, MaterializationSettings(REPEATS, get_environment(ENV).agent_name))
    (run / "manifest.json").unlink()
    report = diagnose(run)
    top = report.findings[0]
    assert (report.category, top.id) == ("cache_resume", "rollouts_of_other_inputs"), [f.title for f in report.findings]
    assert top.title.startswith("172 of 174 rollouts answered another prompt")  # the middle task keeps its place
    assert top.evidence[0].file == ROLLOUTS_FILE and "answered another prompt than line" in top.evidence[0].text


def recollect_with_labels(run: Path, endpoint, relabel) -> int:
    """The run's data with `relabel(labels) -> labels` applied, materialized, collected from the simulated policy
    (which answers from what its checkpoint learned, not from the data) and profiled again; how many labels changed."""
    rows = [json.loads(line) for line in data_of(run).read_text().splitlines()]
    labels = relabel([row["expected_answer"] for row in rows])
    recollect_with_rows(run, endpoint, [row | {"expected_answer": label} for row, label in zip(rows, labels,
                                                                                              strict=True)])
    return sum(row["expected_answer"] != label for row, label in zip(rows, labels, strict=True))


def recollect_with_rows(run: Path, endpoint, rows: list[dict]) -> None:
    """The run's data replaced by `rows`, materialized, collected from the simulated policy and profiled again."""
    data_of(run).write_text("".join(json.dumps(row) + "\n" for row in rows))
    data = data_of(run)
    environment = get_environment(ENV)
    inputs, rollouts = run / MATERIALIZED_INPUTS_FILE, run / ROLLOUTS_FILE
    materialize_and_record(data, inputs, MaterializationSettings(REPEATS, environment.agent_name))
    rollouts.unlink()
    asyncio.run(collect(inputs, rollouts, environment, CollectorSettings(model_url=endpoint.url, concurrency=16)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        write_profile(profile_run(inputs, rollouts, allow_partial=True), rollouts)
    record_stage(run, "reward_profile", {"inputs": {"materialized": file_digest(inputs), "rollouts": file_digest(rollouts)}})


def test_labels_written_in_other_typography_than_the_answers(run, policy_endpoint):
    """Multi-word labels exported with full-width capitals (`Ａlbert Einstein`): the model's plain answers score 0."""
    def full_width_capital(labels):
        return [chr(ord(label[0]) - ord("A") + ord("\uff21")) + label[1:] if " " in label and "A" <= label[0] <= "Z"
                else label for label in labels]

    changed = recollect_with_labels(run, policy_endpoint, full_width_capital)

    report = diagnose(run)

    top = report.causes[0]
    assert (report.category, top.id) == ("data_schema", "expected_answers_in_other_typography"), \
        [f.title for f in report.causes]
    assert changed >= 2 and "expected_answer=" in top.evidence[0].text
    assert "FULLWIDTH LATIN CAPITAL LETTER" in top.title and "NFKC" in top.fix


@pytest.mark.parametrize(("relabel", "how"), [
    (lambda labels: labels[-5:] + labels[:-5], "most labels sit 5 rows after their prompt"),
    (lambda labels: sorted(labels), "reordered apart from the prompts"),
])
def test_labels_paired_with_other_prompts_than_theirs(run, policy_endpoint, relabel, how):
    """Labels moved five rows (a block of rows dropped on one side) or sorted on their own: right answers score 0."""
    recollect_with_labels(run, policy_endpoint, relabel)

    report = diagnose(run)

    top = report.causes[0]
    assert (report.category, top.id) == ("data_schema", "labels_of_other_tasks"), [f.title for f in report.causes]
    assert how in top.title and "expected answer" in top.evidence[0].text


def test_a_collection_cut_short(run):
    rows = (run / ROLLOUTS_FILE).read_text().splitlines(keepends=True)
    (run / ROLLOUTS_FILE).write_text("".join(rows[:100]))
    manifest = read_manifest(run)
    record_stage(run, ROLLOUTS_STAGE, manifest[ROLLOUTS_STAGE] | {"status": COLLECTING})
    report = diagnose(run)
    finding = report.findings[0]
    assert finding.category == "cache_resume"
    assert finding.title.startswith("74 of 174 materialized rollouts have no result")
    assert "The manifest still says the collection is running" in finding.cause
    assert any(e.file == "manifest.json" and "collecting" in e.text for e in finding.evidence)
    assert "gym-pipeline collect --inputs" in finding.fix and "--resume" in finding.fix
    assert "gym-pipeline profile --inputs" in finding.fix and "--allow-partial" in finding.fix


# ---------------------------------------------------------------------------------------------
# Launcher states.

LAUNCHER_CASES = [
    (dict(launcher="slurm", stage="rollouts", slurm_job_id="81234", slurm_state="OUT_OF_MEMORY", exit_code=0),
     "throughput_resources", "Slurm job 81234 (rollouts) ran out of memory", "--mem"),
    (dict(launcher="slurm", slurm_job_id=81234, slurm_state="TIMEOUT"), "throughput_resources", "hit its time limit", "--time"),
    (dict(launcher="slurm", slurm_job_id="81234", slurm_state="NODE_FAIL", slurm_reason="NodeDown"), "infra",
     "lost its node (reason: NodeDown)", "--exclude=<node>"),
    (dict(launcher="slurm", slurm_job_id="81234", slurm_state="CANCELLED by 1000"), "infra", "was cancelled",
     "who cancelled it"),
    (dict(launcher="slurm", slurm_job_id="81234", slurm_state="PENDING", slurm_reason="QOSMaxGRESPerUser"), "infra",
     "still pending (reason: QOSMaxGRESPerUser)", "squeue -j 81234"),
    (dict(launcher="docker", container_id="3f2a9c1b7d0e55aa", exit_code=137, oom_killed=True), "throughput_resources",
     "Container 3f2a9c1b7d0e was killed for running out of memory", "--memory"),
    (dict(launcher="docker", container_id="3f2a9c1b7d0e55aa", exit_code=137, oom_killed=False), "infra",
     "was killed by SIGKILL", "docker events"),
    (dict(launcher="docker", container_id="3f2a9c1b7d0e55aa", exit_code=127), "config", "exited with code 127",
     "entrypoint"),
    (dict(launcher="local", stage="rollouts", pid=4242, exit_code=-9), "infra",
     "Process 4242 (rollouts) was killed by SIGKILL", "dmesg -T"),
    (dict(launcher="local", pid=4242, signal="SIGTERM"), "infra", "was killed by SIGTERM", "logs/"),
    (dict(launcher="local", pid=4242, exit_code=1), "infra", "exited with code 1", "--resume"),
]


@pytest.mark.parametrize(("state", "category", "title", "fix"), LAUNCHER_CASES,
                         ids=[f"{c[0]['launcher']}-{c[0].get('slurm_state') or c[0].get('exit_code') or c[0].get('signal')}"
                              for c in LAUNCHER_CASES])
def test_launcher_states(run, state, category, title, fix):
    path = write_launcher_state(run, LauncherState(**state))
    assert path == run / "logs" / "launcher.json"
    report = diagnose(run)
    finding = report.findings[0]
    assert (finding.category, title in finding.title, fix in finding.fix) == (category, True, True), finding
    assert finding.evidence[0].file == "logs/launcher.json" and finding.evidence[0].line is not None


@pytest.mark.parametrize("state", [dict(launcher="slurm", slurm_job_id="1", slurm_state="COMPLETED", exit_code=0),
                                   dict(launcher="docker", container_id="abc", exit_code=0),
                                   dict(launcher="local", pid=1, started_at="2026-11-30T09:00:00Z")])
def test_launcher_states_that_are_not_failures(run, state):
    write_launcher_state(run, LauncherState(**state), name="logs/launcher_rollouts.json")
    report = diagnose(run)
    assert report.category == "healthy"
    assert len(report.summary["launchers"]) == 1


def test_slurm_log_lines_join_the_launcher_finding(run):
    write_launcher_state(run, LauncherState(launcher="slurm", slurm_job_id="81234", slurm_state="TIMEOUT"))
    shutil.copy(DATA / "slurm_time_limit.out", run / "logs" / "slurm-81234.out")
    [finding] = diagnose(run).findings
    assert [e.file for e in finding.evidence] == ["logs/launcher.json", "logs/slurm-81234.out"]


CANCELLED_LINE = "slurmstepd-vm: error: *** JOB 110 ON vm CANCELLED AT 2026-11-30T13:16:24 ***\n"


def test_a_server_job_the_launcher_stopped_after_serving_is_not_a_failure(run):
    served = LauncherState(launcher="slurm", stage="model_server", slurm_job_id="110", log="logs/model_server.log",
                           stopped_by_launcher=STOPPED_AFTER_SERVING, ended_at="2026-11-30T13:16:25Z")
    write_launcher_state(run, served, name="logs/launcher_model_server.json")
    (run / "logs" / "model_server.log").write_text("SIMULATED_POLICY_READY http://127.0.0.1:5/v1\n" + CANCELLED_LINE)
    report = diagnose(run)
    assert report.category == "healthy", report.findings
    # The same line without the launcher's word for it is a job someone else stopped.
    write_launcher_state(run, LauncherState(**(served.model_dump() | {"stopped_by_launcher": None})),
                         name="logs/launcher_model_server.json")
    # (the outputs are complete, so it is a note: it did not stop the collection that wrote them)
    assert diagnose(run).findings[0].title.endswith("Slurm stopped job 110 before it finished")


def test_the_latest_stage_file_and_its_copy_are_one_finding(run):
    state = LauncherState(launcher="local", stage="rollouts", pid=4242, exit_code=-9)
    write_launcher_state(run, state)
    write_launcher_state(run, state, name="logs/launcher_rollouts.json")
    assert [f.title for f in diagnose(run).findings].count("Process 4242 (rollouts) was killed by SIGKILL") == 1


def test_an_over_memory_kill_reads_as_oom_even_when_slurm_only_says_failed(run):
    write_launcher_state(run, LauncherState(launcher="slurm", slurm_job_id="7", slurm_state="FAILED", oom_killed=True,
                                            slurm_reason="JobLaunchFailure", exit_code=137))
    assert diagnose(run).findings[0].title == "Slurm job 7 was killed for running out of memory"


def test_an_unreadable_launcher_state(run):
    (run / "logs" / "launcher.json").write_text('{"launcher": "kubernetes"}')
    finding = diagnose(run).findings[0]
    assert finding.category == "infra" and "cannot be read" in finding.title


# ---------------------------------------------------------------------------------------------
# A failed Dagster run: its error is the evidence, even before the run wrote anything.


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def dagster_step_error(tmp_path: Path, settings: ModelServerConfig, checkpoint_dir: Path) -> str:
    """The error string of a real failed Dagster step that could not get its model server."""

    @dg.asset
    def rollouts() -> None:
        with serve_checkpoint(settings, "step_0100", checkpoint_dir, tmp_path):
            pass

    result = dg.materialize([rollouts], raise_on_error=False, instance=dg.DagsterInstance.ephemeral())
    [failure] = result.get_step_failure_events()
    return failure.event_specific_data.error.to_string()


def test_a_failed_dagster_run_is_diagnosed_from_its_error_before_any_file_exists(tmp_path):
    endpoint = ModelServerConfig(kind="endpoint", url_template=f"http://127.0.0.1:{closed_port()}/v1",
                                 startup_timeout_s=0.2)
    error = dagster_step_error(tmp_path, endpoint, tmp_path)
    run = tmp_path / "runs" / "step_0100" / ENV  # never created: the stage failed first
    report = diagnose_failed_run(run, error)
    assert report.category == "model_serving"
    [finding] = report.findings  # Dagster's own wrapper exception is not the error
    assert finding.title == "The model server did not come up or did not answer"
    assert finding.evidence[0].file == "dagster: run failure"
    assert "did not answer" in finding.evidence[0].text
    path = write_diagnosis(report, run)
    assert path == run / "diagnosis.json"
    assert read_diagnosis(run).to_json_dict() == report.to_json_dict()
    assert json.loads(path.read_text())["category"] == "model_serving"


def test_a_missing_checkpoint_named_by_a_failed_run_comes_before_the_missing_rollouts(run, tmp_path):
    error = dagster_step_error(tmp_path, ModelServerConfig(), tmp_path / "checkpoints" / "step_9999")
    (run / ROLLOUTS_FILE).unlink()
    (run / "logs" / "dagster_failure.log").write_text(error)  # as the run-failure sensor writes it
    report = diagnose(run)
    titles = [f.title for f in report.findings]
    assert report.category == "config", titles
    assert titles[0] == f"The checkpoint to serve does not exist: {tmp_path / 'checkpoints' / 'step_9999'}"
    assert titles[1].startswith("174 of 174 materialized rollouts have no result")
    assert len(titles) == 2


def test_a_failed_run_error_adds_to_what_the_folder_shows(run):
    data_of(run).write_text(data_of(run).read_text() + '{"responses_create_params": {"input": "new"}}\n')
    error = f"dagster._core.definitions.events.Failure: refusing to collect on stale inputs: {run} is stale"
    report = diagnose_failed_run(run, error)
    [finding] = report.findings  # the refusal is cited by the stale-inputs finding, not repeated
    assert finding.category == "cache_resume" and finding.title.startswith("Stale materialized inputs")
    assert any(e.file == "dagster: run failure" for e in finding.evidence)


def test_a_collection_into_another_file_leaves_the_runs_rollouts_as_they_stopped(run, policy_endpoint):
    """A stopped collection "resumed" with a new --output: the new file is collected afresh, the old one stays partial."""
    rows = (run / ROLLOUTS_FILE).read_text().splitlines(keepends=True)
    (run / ROLLOUTS_FILE).write_text("".join(rows[:50]))
    asyncio.run(collect(run / MATERIALIZED_INPUTS_FILE, run / "rollouts_v2.jsonl", get_environment(ENV),
                        CollectorSettings(model_url=policy_endpoint.url, concurrency=16), resume=True))
    report = diagnose(run)
    top = report.causes[0]
    assert (report.category, top.title) == (
        "cache_resume", "The last collection wrote rollouts_v2.jsonl, not rollouts.jsonl: the run's own rollouts file "
                        "was left as it stopped"), [f.title for f in report.findings]
    assert top.evidence[0].text.startswith("rollouts.output.path: ") and top.evidence[0].text.endswith("rollouts_v2.jsonl")
    assert f"--rollouts {run / 'rollouts_v2.jsonl'}" in top.fix and f"--output {run / ROLLOUTS_FILE}" in top.fix
    assert "--resume" in top.fix
    assert any(f.role == "consequence" and "partial output" in f.title for f in report.findings)


def test_a_model_server_stopped_after_it_got_ready_is_named_with_what_stopped_it(run, tmp_path):
    """A real server that printed its address and was then stopped (SIGTERM, as a script's `trap ... EXIT` sends)."""
    from gym_pipeline.serving.checkpoints import demo_checkpoints

    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 1, [ENV])[0]
    (run / ROLLOUTS_FILE).unlink()
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([sys.executable, "-m", "gym_pipeline.cli", "serve-policy", "--port", "0",
                                   "--checkpoint", str(checkpoint)], stdout=log, stderr=subprocess.STDOUT)
        url = wait_for_ready_url(run / "logs" / "model_server.log")
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
    with (run / "logs" / "collect.log").open("w") as log:
        collected = subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "collect", "--inputs",
                                    str(run / MATERIALIZED_INPUTS_FILE), "--output", str(run / ROLLOUTS_FILE),
                                    "--model-url", url, "--env", ENV], stdout=log, stderr=subprocess.STDOUT)
    assert collected.returncode != 0
    top = diagnose(run).causes[0]
    assert (top.category, top.title) == (
        "model_serving", f"The model server was ready at {url}, and had stopped when the stage called it")
    assert "(its log: `INFO simulated policy: stopped by SIGTERM" in top.cause
    assert "trap ... EXIT" in top.fix and f"curl -s {url}/models" in top.fix


def wait_for_ready_url(log: Path, timeout_s: float = 30) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for line in log.read_text().splitlines():
            if line.startswith(READY_PREFIX):
                return line.split()[1]
        time.sleep(0.1)
    raise AssertionError(f"no ready line in {log}: {log.read_text()}")


def _second_checkpoint_unprofiled(run: Path) -> Path:
    """Beside the profiled run of step_0100, step_0200's run: collected later (its manifest says so), not profiled."""
    newer = run.parents[1] / "step_0200" / ENV
    shutil.copytree(run, newer, ignore=shutil.ignore_patterns("rollouts_reward_profiling.jsonl", "*metrics.json",
                                                              "rollouts_reward_analysis.*"))
    manifest = read_manifest(newer)
    manifest[ROLLOUTS_STAGE]["recorded_at"] = "2999-01-01T00:00:00Z"
    (newer / "manifest.json").write_text(json.dumps(manifest))
    return newer


def test_a_latest_link_left_on_the_previous_checkpoint_is_a_profile_of_an_older_run(run):
    _second_checkpoint_unprofiled(run)
    runs = run.parents[1]
    (runs / "latest").symlink_to(runs / "step_0100")
    report = diagnose(runs)
    assert report.category == "cache_resume", [f.title for f in report.findings]
    finding = report.causes[0]
    assert finding.id == "profile_of_an_older_run"
    assert "`latest` points at step_0100, not at the newest run step_0200" in finding.title
    assert "ln -sfn step_0200 latest" in finding.fix


def test_a_report_of_the_most_recently_modified_folder_after_a_cleanup_touched_the_older_one(run):
    """report.sh profiles `ls -td */*/ | head -1`; a cleanup removing a scratch file from step_0100's folder after
    step_0200 was collected makes the older folder the most recent by time, and bash really picks it."""
    newer = _second_checkpoint_unprofiled(run)
    runs = run.parents[1]
    (run / "collect.tmp").write_text("scratch")
    (runs / "report.sh").write_text(f"#!/bin/bash\nLATEST=$(ls -td */*/ | head -1)\necho \"report of $LATEST\"\n"
                                    f"{sys.executable} -m gym_pipeline.cli profile --inputs "
                                    "${LATEST}rollouts_materialized_inputs.jsonl --rollouts ${LATEST}rollouts.jsonl "
                                    "--output-dir report\n")
    time.sleep(0.05)  # past the copy's modification times
    with (runs / "cleanup.log").open("w") as log:
        subprocess.run("rm -v -f */*/collect.tmp", shell=True, cwd=runs, stdout=log, stderr=subprocess.STDOUT,
                       check=True)
    with (runs / "report.log").open("w") as log:
        subprocess.run(["bash", "report.sh"], cwd=runs, stdout=log, stderr=subprocess.STDOUT, check=True)
    assert f"report of step_0100/{ENV}/" in (runs / "report.log").read_text()  # bash really picked the older run
    assert newer.is_dir()

    finding = diagnose(runs).causes[0]

    assert (finding.category, finding.id) == ("cache_resume", "profile_of_an_older_run")
    assert "report.sh takes the most recently modified run folder (`ls -t`)" in finding.title
    assert f"removed 'step_0100/{ENV}/collect.tmp'" in finding.cause
    assert "In report.sh, pick the run by its name or its record, not by modification time" in finding.fix


def test_a_newer_run_not_profiled_yet_without_a_pointer_to_the_older_one_is_no_fault(run):
    _second_checkpoint_unprofiled(run)
    report = diagnose(run.parents[1])
    assert "profile_of_an_older_run" not in [f.id for f in report.findings]


def test_inputs_a_script_copies_from_a_cache_kept_by_file_name_are_stale_and_the_fix_names_the_cache(
        policy_endpoint, tmp_path):
    """prepare.sh materializes into a cache named after the data file and copies it in: after the data changed, the
    cache still gives last week's rows, and no manifest of ours records where the inputs came from."""
    environment = get_environment(ENV)
    run, cache = tmp_path / "run", tmp_path / "cache" / "eval_inputs"
    (run / "data").mkdir(parents=True)
    cache.mkdir(parents=True)
    data = run / "data" / f"{ENV}.jsonl"
    rows = environment.dataset_path.read_text().splitlines(keepends=True)
    data.write_text("".join(rows[:8]))
    materialize_file(data, cache / "inputs_string_match_x2.jsonl", MaterializationSettings(REPEATS, environment.agent_name))
    data.write_text("".join(rows[:12]))  # this week's data: four tasks more
    (run / "prepare.sh").write_text(f"#!/bin/bash\nCACHE_DIR={cache}\nCACHE=$CACHE_DIR/inputs_string_match_x2.jsonl\n"
                                    "[ -f $CACHE ] || exit 1\ncp $CACHE rollouts_materialized_inputs.jsonl\n")
    subprocess.run(["bash", "prepare.sh"], cwd=run, check=True)
    inputs, rollouts = run / MATERIALIZED_INPUTS_FILE, run / ROLLOUTS_FILE
    asyncio.run(collect(inputs, rollouts, environment, CollectorSettings(model_url=policy_endpoint.url, concurrency=8)))

    report = diagnose(run)

    top = report.causes[0]
    assert (report.category, top.id) == ("cache_resume", "stale_inputs"), [f.title for f in report.causes]
    assert "4 tasks added" in top.cause
    assert "copied in by prepare.sh:5 (`cp $CACHE rollouts_materialized_inputs.jsonl`" in top.fix
    assert f"CACHE_DIR={cache}" in top.fix


def test_prompts_built_from_a_template_that_was_never_filled(run, policy_endpoint):
    """build_rows.py writes the template itself (no f prefix): every task asks '{question} ...'."""
    template = "{question} Reply with just the answer."
    (run / "build_rows.py").write_text(f'prompt = "{template}"  # later: row["prompt"] = prompt\n')
    data = data_of(run)
    rows = [json.loads(line) for line in data.read_text().splitlines()]
    for row in rows:
        row["responses_create_params"]["input"] = [{"role": "user", "content": template}]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    recollect_with_labels(run, policy_endpoint, lambda labels: labels)

    report = diagnose(run)

    top = report.causes[0]
    assert (report.category, top.id) == ("data_schema", "one_prompt_for_most_tasks"), [f.title for f in report.causes]
    assert top.title == "87 of 87 tasks have one and the same prompt, holding the placeholder `{question}`"
    assert top.evidence[1].where == "build_rows.py:1" and "Fix build_rows.py" in top.fix
    assert all(f.id != "one_answer_to_every_task" for f in report.findings)


def test_labels_converted_from_yaml_whose_bare_yes_and_no_became_booleans(run, policy_endpoint):
    """questions.yaml answers `no` and `yes` unquoted; PyYAML (YAML 1.1) loads them as booleans."""
    import yaml

    (run / "questions.yaml").write_text("- answer: no\n- answer: yes\n- answer: Paris\n")
    loaded = [item["answer"] for item in yaml.safe_load((run / "questions.yaml").read_text())]
    assert loaded[:2] == [False, True]
    recollect_with_labels(run, policy_endpoint, lambda labels: [*loaded[:2]] * 10 + labels[20:])

    report = diagnose(run)

    top = report.causes[0]
    assert (report.category, top.id) == ("data_schema", "verifier_refuses_row_values"), [f.title for f in report.causes]
    assert "questions.yaml:1 writes one as a bare word (`- answer: no`)" in top.fix


def test_labels_cut_to_integers_by_the_users_tidying_script(run, policy_endpoint):
    """normalize_labels.py writes `int(float(label))` for numeric labels: 273.15 becomes 273, 0.375 becomes 0."""
    (run / "normalize_labels.py").write_text("def tidy(label):\n    return str(int(float(label)))  # '7.0' -> '7'\n")

    def tidy(labels):
        return [str(int(float(label))) if label.replace(".", "", 1).isdigit() else label for label in labels]

    recollect_with_labels(run, policy_endpoint, tidy)

    report = diagnose(run)

    top = report.causes[0]
    assert (report.category, top.id) == ("data_schema", "labels_truncated_to_integers"), [f.title for f in report.causes]
    assert top.evidence[1].where == "normalize_labels.py:2" and "normalize_labels.py" in top.fix


def test_prompts_cut_at_one_length_by_an_export(run, policy_endpoint):
    """An annotation tool's column of 60 characters cut every longer prompt."""
    data = data_of(run)
    rows = [json.loads(line) for line in data.read_text().splitlines()]
    for row in rows:
        part = row["responses_create_params"]["input"][-1]["content"][0]
        part["text"] = part["text"][:60]
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    (run / "eval_set.csv").write_text("prompt,answer\n")
    recollect_with_labels(run, policy_endpoint, lambda labels: labels)

    report = diagnose(run)

    cut = next(f for f in report.causes if f.id == "prompts_cut_at_one_length")
    assert cut.category == "data_schema" and "are exactly 60 characters long" in cut.title
    assert "eval_set.csv" in cut.fix


@pytest.mark.parametrize("cut", [True, False])
def test_prompts_cut_before_the_instruction_the_preparation_appends(run, policy_endpoint, cut: bool):
    """A question bank's 60-character column cut the longer questions, and the preparation appended its answer
    instruction after them: the questions, not the prompts, are one length. Uncut, the run is healthy."""
    data = data_of(run)
    rows = [json.loads(line) for line in data.read_text().splitlines()]
    for row in rows:
        part = row["responses_create_params"]["input"][-1]["content"][0]
        part["text"] = (part["text"][:60] if cut else part["text"]) + " Answer with one word."
    data.write_text("".join(json.dumps(row) + "\n" for row in rows))
    recollect_with_labels(run, policy_endpoint, lambda labels: labels)

    report = diagnose(run)

    found = [f for f in report.findings if f.id == "prompts_cut_at_one_length"]
    if not cut:
        assert not found, [f.title for f in report.causes]
        return
    assert found and found[0].category == "data_schema", [f.title for f in report.causes]
    assert "are exactly 60 characters long, before the instruction every prompt ends with ('Answer with one word.')" \
        in found[0].title


def test_a_statistics_warning_made_fatal_by_pythonwarnings_error_from_a_shared_settings_file(run):
    """run_eval.sh sources the CI's dev_env.sh (`export PYTHONWARNINGS=error`): the profile's harmless statistics
    warning becomes an exception and ends it; the cause is the setting, named with its file."""
    for profile_file in run.glob("rollouts_reward_*"):
        profile_file.unlink()
    (run / "dev_env.sh").write_text("# settings shared with the CI jobs\nexport PYTHONWARNINGS=error\n")
    (run / "run_eval.sh").write_text(f"#!/bin/bash\nsource dev_env.sh\n{sys.executable} -m gym_pipeline.cli profile "
                                     f"--inputs {MATERIALIZED_INPUTS_FILE} --rollouts {ROLLOUTS_FILE}\n")
    with (run / "logs" / "run_eval.log").open("w") as log:
        profiled = subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT)
    assert profiled.returncode != 0 and "Warning: " in (run / "logs" / "run_eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("infra", "warning_raised_as_an_error")
    assert [line.file for line in top.evidence] == ["logs/run_eval.log", "dev_env.sh"]
    assert "remove or scope `export PYTHONWARNINGS=error` in dev_env.sh" in top.fix


def test_a_warning_python_printed_and_went_on_from_is_no_error(run):
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "profile", "--inputs", MATERIALIZED_INPUTS_FILE,
                        "--rollouts", ROLLOUTS_FILE], cwd=run, stdout=log, stderr=subprocess.STDOUT, check=True)
    assert "Warning: " in (run / "logs" / "run_eval.log").read_text()  # printed as `file.py:N: UserWarning: ...`

    assert diagnose(run).healthy


CONVERT_BY_POSITION = '''import csv, json, sys
with open(sys.argv[1], newline="") as source:
    reader = csv.reader(source)
    next(reader)  # header: id, question, answer (before the export gained a column)
    print(json.dumps([record[2] for record in reader]))
'''


def test_labels_a_converter_reads_by_position_from_an_export_that_gained_a_column(run, policy_endpoint):
    """export.csv gained a `category` column before `answer`; convert.py still reads record[2]: every label is the
    task's category, and the diagnosis names the column, the export and the script's line."""
    (run / "convert.py").write_text(CONVERT_BY_POSITION)

    def converted(labels):
        categories = ["science", "geography", "history"]
        with (run / "export.csv").open("w", newline="") as export:
            writer = csv.writer(export)
            writer.writerow(["id", "question", "category", "answer"])
            writer.writerows([task, f"question {task}", categories[task % 3], label] for task, label in enumerate(labels))
        return json.loads(subprocess.run([sys.executable, "convert.py", "export.csv"], cwd=run, capture_output=True,
                                         text=True, check=True).stdout)

    recollect_with_labels(run, policy_endpoint, converted)

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("data_schema", "labels_from_another_column")
    assert top.title.startswith("The expected answers are the `category` column of export.csv, not its `answer` column")
    assert top.evidence[-1].where == "convert.py:5"
    assert 'In convert.py, read the label by its column\'s name (`csv.DictReader`, `record["answer"]`)' in top.fix


PREP_WITH_PANDAS = '''import json, sys
import pandas as pd
frame = pd.read_csv(sys.argv[1])
print(json.dumps([str(row.answer) for row in frame.itertuples()][:-1]))  # the last row is the sheet's empty note row
'''


def test_labels_pandas_read_as_numbers_are_written_otherwise_and_the_fix_names_the_read(run, policy_endpoint):
    """prep_data.py reads the math tasks' sheet with pd.read_csv: its answer column, with an empty cell, is read as
    floats, so 36 becomes '36.0' and the model's right answers score 0; the fix names the script's read_csv."""
    (run / "prep_data.py").write_text(PREP_WITH_PANDAS)

    def through_pandas(labels):  # the math tasks' sheet: its answer column holds only numbers, and one empty cell
        math = [label for label in labels if label.isdigit()]
        with (run / "sheet.csv").open("w", newline="") as sheet:
            csv.writer(sheet).writerows([["answer"], *([label] for label in math), [""]])
        read = iter(json.loads(subprocess.run([sys.executable, "prep_data.py", "sheet.csv"], cwd=run,
                                              capture_output=True, text=True, check=True).stdout))
        return [next(read) if label.isdigit() else label for label in labels]

    recollect_with_labels(run, policy_endpoint, through_pandas)

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("data_schema", "numbers_written_otherwise_in_expected_answers")
    assert top.evidence[-1].where == "prep_data.py:3"
    assert ("In prep_data.py, read the table's columns as text (`pd.read_csv(..., dtype=str)`, or at least "
            "`dtype={'answer': str}`)") in top.fix
    assert "prep_data.py:4 turns the column `answer` into text (`str(row.answer)`)" in top.cause


PREP_SORTING_ONE_SIDE = '''import json
questions = sorted(set(open("questions.txt").read().splitlines()))  # drop duplicated questions
answers = open("answers.txt").read().splitlines()
print(json.dumps(dict(zip(questions, answers))))
'''


def test_labels_paired_by_position_after_one_side_was_sorted_name_the_script_line(run, policy_endpoint):
    """prep_data.py de-duplicates the questions with sorted(set(...)) before zipping them with the answers file:
    every task gets another task's label, and the fix names the line that reordered one side."""
    (run / "prep_data.py").write_text(PREP_SORTING_ONE_SIDE)
    prompts = [json.loads(line)["responses_create_params"]["input"][0]["content"][0]["text"]
               for line in data_of(run).read_text().splitlines()]

    def paired_after_sorting(labels):
        (run / "questions.txt").write_text("".join(f"{prompt}\n" for prompt in prompts))
        (run / "answers.txt").write_text("".join(f"{label}\n" for label in labels))
        label_of = json.loads(subprocess.run([sys.executable, "prep_data.py"], cwd=run, capture_output=True,
                                             text=True, check=True).stdout)
        return [label_of[prompt] for prompt in prompts]

    recollect_with_labels(run, policy_endpoint, paired_after_sorting)

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("data_schema", "labels_of_other_tasks")
    assert top.evidence[-1].where == "prep_data.py:2"
    assert "In prep_data.py, do not reorder one side before `zip` (line 2" in top.fix


PREP_WITH_CHAT_TEMPLATE = '''import json, sys
TEMPLATE = "<|im_start|>user\\n{q}<|im_end|>\\n<|im_start|>assistant\\n"  # as in the SFT data pipeline
rows = [json.loads(line) for line in open(sys.argv[1])]
with open(sys.argv[1], "w") as out:
    for row in rows:
        content = row["responses_create_params"]["input"][0]["content"][0]
        content["text"] = TEMPLATE.format(q=content["text"])
        out.write(json.dumps(row) + "\\n")
'''


def test_prompts_a_data_script_rendered_with_a_chat_template_are_the_datas_fault(run, policy_endpoint):
    (run / "prep_data.py").write_text(PREP_WITH_CHAT_TEMPLATE)
    subprocess.run([sys.executable, "prep_data.py", str(data_of(run))], cwd=run, check=True)

    recollect_with_labels(run, policy_endpoint, lambda labels: labels)

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("data_schema", "prompts_with_a_chat_template")
    assert [line.file for line in top.evidence] == ["rollouts_materialized_inputs.jsonl", "prep_data.py"]
    assert "In prep_data.py, keep the question as a plain user message (no <|im_start|> markers" in top.fix


PREP_FROM_SHEET = '''import csv, json, sys
with open(sys.argv[1], newline="") as sheet:
    print(json.dumps([record["answer"].strip() for record in csv.DictReader(sheet)]))
'''


def test_labels_keeping_a_spreadsheets_text_apostrophe_name_the_export_and_the_script(run, policy_endpoint):
    """The review sheet kept its numeric answers as text, and its export keeps the leading apostrophe ('36): the
    labels read from it by prep_data.py never equal the model's 36."""
    (run / "prep_data.py").write_text(PREP_FROM_SHEET)

    def exported(labels):
        with (run / "answers.csv").open("w", newline="") as sheet:
            csv.writer(sheet).writerows([["answer"], *([f"'{label}" if label.isdigit() else label] for label in labels)])
        return json.loads(subprocess.run([sys.executable, "prep_data.py", "answers.csv"], cwd=run, capture_output=True,
                                         text=True, check=True).stdout)

    recollect_with_labels(run, policy_endpoint, exported)

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("data_schema", "wrapped_expected_answers")
    assert "a spreadsheet's leading apostrophe" in top.cause
    assert top.fix.startswith("In prep_data.py, strip the markup when reading answers.csv.")


@pytest.mark.parametrize("number_format", ["narrow column", "currency", "formulas shown", "general"])
def test_labels_exported_in_a_spreadsheets_number_format_name_the_export_and_the_format(run, policy_endpoint,
                                                                                        number_format):
    """The labelling sheet's answer column shows its numbers in a display format, and its CSV export writes them as
    shown: in a 3-character column every longer number in scientific notation (5050 as 5.1E+03), in Currency format
    with a dollar sign and cents (36 as $36.00), with its formulas shown (the sum's cell as `=5000+50`). prep_data.py
    reads labels no exact answer equals. The General format exports the numbers as they are, and the run is healthy."""
    (run / "prep_data.py").write_text(PREP_FROM_SHEET)

    def shown(label):
        if not label.isdigit() or number_format == "general":
            return label
        if number_format == "currency":
            return f"${int(label):,.2f}"
        if number_format == "formulas shown":
            return f"={int(label) - 7}+7"
        return f"{int(label):.1E}" if len(label) > 3 else label

    def exported(labels):
        with (run / "answers.csv").open("w", newline="") as sheet:
            csv.writer(sheet).writerows([["answer"], *([shown(label)] for label in labels)])
        return json.loads(subprocess.run([sys.executable, "prep_data.py", "answers.csv"], cwd=run, capture_output=True,
                                         text=True, check=True).stdout)

    changed = recollect_with_labels(run, policy_endpoint, exported)

    report = diagnose(run)
    if number_format == "general":
        assert changed == 0 and report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert changed >= 10 and (top.category, top.id) == ("data_schema", "labels_in_a_spreadsheets_display_format")
    shown_as = {"narrow column": "scientific notation", "currency": "currency", "formulas shown": "formula"}[
        number_format]
    assert f"in a spreadsheet's {shown_as} format" in top.title
    assert "Table files in the run folder: answers.csv" in top.cause
    assert top.fix.startswith("Export the labels again from answers.csv with the answer column formatted as")


PREP_FROM_MARKDOWN = '''import json
cells = [line.strip().strip("|").split("|") for line in open("review.md", encoding="utf-8") if line.startswith("|")]
print(json.dumps([answer.strip() for _, answer in cells[2:]]))
'''


@pytest.mark.parametrize("bolded", [True, False])
def test_labels_bolded_in_a_markdown_review_table_name_the_table_and_the_script(run, policy_endpoint, bolded):
    """Reviewers bold the answers they checked in review.md; prep_data.py copies the cells as they are, so every
    other label is `**Paris**`, which no answer equals. The same table without bold is healthy."""
    (run / "prep_data.py").write_text(PREP_FROM_MARKDOWN)

    def reviewed(labels):
        rows = [f"| q{i} | {f'**{label}**' if bolded and i % 2 else label} |" for i, label in enumerate(labels)]
        (run / "review.md").write_text("# Reviewed answers\n\n| question | answer |\n|---|---|\n" + "\n".join(rows) + "\n")
        return json.loads(subprocess.run([sys.executable, "prep_data.py"], cwd=run, capture_output=True, text=True,
                                         check=True).stdout)

    recollect_with_labels(run, policy_endpoint, reviewed)

    report = diagnose(run)
    if not bolded:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "wrapped_expected_answers")
    assert "Markdown emphasis" in top.cause and "`**Oslo**` -> `Oslo`" in top.fix
    assert top.fix.startswith("In prep_data.py, strip the markup when reading review.md.")


@pytest.mark.parametrize("cited", [True, False])
def test_labels_copied_from_a_wiki_table_with_citation_markers_name_the_marker(run, policy_endpoint, cited):
    """The answers were copied from a wiki table whose cells carry footnote references (`Paris[3]`); prep_data.py
    reads the sheet as it is, so those labels never equal an answer. Copied without the markers, the run is healthy."""
    (run / "prep_data.py").write_text(PREP_FROM_SHEET)

    def copied(labels):
        with (run / "answers.csv").open("w", newline="") as sheet:
            csv.writer(sheet).writerows([["answer"], *([f"{label}[{i + 1}]" if cited and i % 2 else label]
                                                       for i, label in enumerate(labels))])
        return json.loads(subprocess.run([sys.executable, "prep_data.py", "answers.csv"], cwd=run, capture_output=True,
                                         text=True, check=True).stdout)

    recollect_with_labels(run, policy_endpoint, copied)

    report = diagnose(run)
    if not cited:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "wrapped_expected_answers")
    assert top.fix.startswith("The labels keep the citation markers of the page they were copied from (`")
    assert "is a footnote reference, not part of the answer): remove every such marker" in top.fix


PREP_WITH_ENCODING = '''import csv, json, sys
with open(sys.argv[1], newline="", encoding="{encoding}") as sheet:  # the old export tool wrote Windows text
    print(json.dumps([record["answer"].strip() for record in csv.DictReader(sheet)]))
'''


@pytest.mark.parametrize("encoding", ["latin-1", "utf-8"])
def test_labels_of_a_utf8_export_read_as_latin1_are_named_with_the_scripts_encoding(run, policy_endpoint, encoding):
    """The labelling tool now exports UTF-8, with some accented answers (`Bogotá`); prep_data.py still opens the file
    as Latin-1, so they become `BogotÃ¡`. Read as UTF-8, the labels are whole (and no such finding)."""
    (run / "prep_data.py").write_text(PREP_WITH_ENCODING.format(encoding=encoding))
    accented = ["Bogotá", "Brasília", "Reykjavík"]

    def exported(labels):
        with (run / "answers.csv").open("w", newline="", encoding="utf-8") as sheet:
            csv.writer(sheet).writerows([["answer"], *([accented[i] if i < len(accented) else label]
                                                       for i, label in enumerate(labels))])
        return json.loads(subprocess.run([sys.executable, "prep_data.py", "answers.csv"], cwd=run, capture_output=True,
                                         text=True, check=True).stdout)

    recollect_with_labels(run, policy_endpoint, exported)

    findings = diagnose(run).findings

    if encoding == "utf-8":
        assert all(f.id != "labels_decoded_with_the_wrong_encoding" for f in findings)
        return
    top = next(f for f in findings if f.role == "cause")
    assert (top.category, top.id) == ("data_schema", "labels_decoded_with_the_wrong_encoding")
    assert top.title.startswith("3 labels are UTF-8 text decoded as Latin-1 ('BogotÃ¡' is 'Bogotá')")
    assert top.evidence[1].where == "prep_data.py:2"
    assert top.fix.startswith("In prep_data.py:2, open the file with encoding='utf-8'")


PREP_SLICING_NEWLINES = '''import json
print(json.dumps([answer[:-1] for answer in open("answers.txt", encoding="utf-8").readlines()]))  # drop the newline
'''


@pytest.mark.parametrize("final_newline", [False, True])
def test_a_newline_dropped_with_a_slice_cuts_the_last_label_of_a_file_without_one(run, policy_endpoint,
                                                                                  final_newline):
    """The review tool writes answers.txt without a newline after its last line; prep_data.py drops each line's
    newline with `[:-1]`, which cuts the last label's last letter. With the final newline, every label is whole."""
    (run / "prep_data.py").write_text(PREP_SLICING_NEWLINES)

    def exported(labels):
        (run / "answers.txt").write_text("\n".join(labels) + ("\n" if final_newline else ""), encoding="utf-8")
        return json.loads(subprocess.run([sys.executable, "prep_data.py"], cwd=run, capture_output=True, text=True,
                                         check=True).stdout)

    changed = recollect_with_labels(run, policy_endpoint, exported)

    report = diagnose(run)
    if final_newline:
        assert changed == 0 and all(f.id != "last_line_cut_by_a_newline_slice" for f in report.findings)
        return
    assert changed == 1
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "last_line_cut_by_a_newline_slice")
    assert top.title.startswith("prep_data.py:2 drops each line's last character (`answer[:-1]`) for its newline; "
                                "answers.txt has none after its last line")
    assert 'instead of `answer[:-1]`' in top.fix


PREP_FROM_REVIEW_EXPORT = '''import json
items = json.load(open("review_export.json"))
print(json.dumps([str(item.get("answers") or item.get("answer")) for item in items]))  # old or new export
'''


@pytest.mark.parametrize("listed", [True, False])
def test_labels_a_data_script_turned_from_lists_into_text_name_its_str_line(run, policy_endpoint, listed):
    """The review tool's new export holds each label as a list (`"answers": ["Lisbon"]`); prep_data.py's str() writes
    `['Lisbon']`, which no answer equals. The old export's `"answer": "Lisbon"` passes through whole."""
    (run / "prep_data.py").write_text(PREP_FROM_REVIEW_EXPORT)

    def exported(labels):
        items = [{"answers": [label]} if listed else {"answer": label} for label in labels]
        (run / "review_export.json").write_text(json.dumps(items))
        return json.loads(subprocess.run([sys.executable, "prep_data.py"], cwd=run, capture_output=True, text=True,
                                         check=True).stdout)

    changed = recollect_with_labels(run, policy_endpoint, exported)

    report = diagnose(run)
    if not listed:
        assert changed == 0 and report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "wrapped_expected_answers")
    assert top.fix.startswith("prep_data.py:3 (`print(json.dumps([str(item.get(\"answers\") or item.get(\"answer\")) "
                              "for item in items]))")
    assert "turns a list of answers into its Python text with str()" in top.fix


PREP_FROM_ANSWERS_FILE = '''import json
print(json.dumps(open("answers.txt", encoding="utf-8").read().splitlines()))
'''


def test_labels_in_other_typography_name_the_data_script_and_the_file_it_reads(run, policy_endpoint):
    """answers.txt, copied out of a document, writes multi-word labels with a full-width capital; prep_data.py reads
    it as it is: the fix names the script and the file to normalize."""
    (run / "prep_data.py").write_text(PREP_FROM_ANSWERS_FILE)

    def copied_from_a_document(labels):
        (run / "answers.txt").write_text("".join(
            (chr(ord(label[0]) - ord("A") + ord("\uff21")) + label[1:] if " " in label and "A" <= label[0] <= "Z"
             else label) + "\n" for label in labels), encoding="utf-8")
        return json.loads(subprocess.run([sys.executable, "prep_data.py"], cwd=run, capture_output=True, text=True,
                                         check=True).stdout)

    recollect_with_labels(run, policy_endpoint, copied_from_a_document)

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("data_schema", "expected_answers_in_other_typography")
    assert top.fix.startswith("In prep_data.py, normalize the labels it reads from answers.txt:")


PREP_SPLITTING_BY_HAND = '''import json, sys
pairs = []
for line in open(sys.argv[1], encoding="utf-8").readlines()[1:]:
    fields = line.rstrip("\\n").split(",")
    pairs.append([fields[0], fields[1].strip()])
print(json.dumps(pairs))
'''
PREP_WITH_CSV_READER = '''import csv, json, sys
with open(sys.argv[1], newline="", encoding="utf-8") as sheet:
    print(json.dumps([[record["question"], record["answer"]] for record in csv.DictReader(sheet)]))
'''


@pytest.mark.parametrize("mostly_quoted", [False, True], ids=["some_quoted", "mostly_quoted"])
@pytest.mark.parametrize("prep", [PREP_SPLITTING_BY_HAND, PREP_WITH_CSV_READER], ids=["split_by_hand", "csv_reader"])
def test_rows_a_prep_script_cut_at_the_commas_inside_quoted_questions(run, policy_endpoint, prep, mostly_quoted):
    """questions.csv quotes the questions that hold a comma; prep_data.py splits each line at every comma, so those
    rows get a question's opening fragment as prompt and its next fragment as label. Read with the csv module, the
    same export gives whole rows and no such finding. When most questions hold a comma, the policy gives all their
    fragments one reply (it cannot make them out): still the data's fault, not a stand-in answering for the model."""
    rows = [json.loads(line) for line in data_of(run).read_text().splitlines()]
    if mostly_quoted:
        def question(row):
            return row["responses_create_params"]["input"][0]["content"][0]["text"].split("?")[0]
        rows = [row for row in rows if "," in question(row)][:4] + [row for row in rows if "," not in question(row)][:2]
    with (run / "questions.csv").open("w", newline="", encoding="utf-8") as sheet:
        csv.writer(sheet).writerows([["question", "answer"], *([row["responses_create_params"]["input"][0]["content"][0][
            "text"], row["expected_answer"]] for row in rows)])
    (run / "prep_data.py").write_text(prep)
    (run / "run_eval.sh").write_text("python3 prep_data.py questions.csv > pairs.json\n")
    pairs = json.loads(subprocess.run([sys.executable, "prep_data.py", "questions.csv"], cwd=run, capture_output=True,
                                      text=True, check=True).stdout)
    recollect_with_rows(run, policy_endpoint, [
        row | {"expected_answer": answer, "responses_create_params": {"input": [{"role": "user", "content": question}]}}
        for row, (question, answer) in zip(rows, pairs, strict=True)])

    findings = {finding.id: finding for finding in diagnose(run).causes}

    if prep is PREP_WITH_CSV_READER:
        assert "rows_cut_at_quoted_commas" not in findings
        return
    top = next(iter(findings.values()))
    assert (top.category, top.id) == ("data_schema", "rows_cut_at_quoted_commas")
    split_line = next(number for number, line in enumerate(prep.splitlines(), start=1) if ".split(" in line)
    assert top.evidence[-1].where == f"prep_data.py:{split_line}"
    assert top.fix.startswith("In prep_data.py, read questions.csv with the `csv` module")

PREP_FROM_WEB_EXPORT = '''import html, json, sys
items = json.load(open(sys.argv[1]))["items"]
print(json.dumps([{"expected_answer": item["answer_html"]} for item in items]))
'''
PREP_DECODING_WEB_EXPORT = '''import html, json, sys
items = json.load(open(sys.argv[1]))["items"]
print(json.dumps([{"expected_answer": html.unescape(item["answer_html"]).replace("\\xa0", " ")} for item in items]))
'''


@pytest.mark.parametrize("prep", [PREP_FROM_WEB_EXPORT, PREP_DECODING_WEB_EXPORT], ids=["as_exported", "decoded"])
def test_labels_a_prep_script_takes_from_a_web_exports_html_field(run, policy_endpoint, prep):
    """cms_export.json writes its answers as HTML (`Albert&nbsp;Einstein`); prep_data.py takes `answer_html` as the
    label: the fix names the script's line and the export. Decoded with html.unescape, the same export is no fault."""
    (run / "prep_data.py").write_text(prep)
    (run / "run_eval.sh").write_text("python3 prep_data.py cms_export.json > labels.json\n")

    def exported(labels):
        (run / "cms_export.json").write_text(json.dumps({"items": [{"answer_html": label.replace(" ", "&nbsp;")}
                                                                   for label in labels]}))
        rows = json.loads(subprocess.run([sys.executable, "prep_data.py", "cms_export.json"], cwd=run,
                                         capture_output=True, text=True, check=True).stdout)
        return [row["expected_answer"] for row in rows]

    changed = recollect_with_labels(run, policy_endpoint, exported)

    findings = {finding.id: finding for finding in diagnose(run).causes}
    if prep is PREP_DECODING_WEB_EXPORT:
        assert changed == 0 and "html_entities_in_expected_answers" not in findings
        return
    top = next(iter(findings.values()))
    assert changed >= 2 and (top.category, top.id) == ("data_schema", "html_entities_in_expected_answers")
    label_line = next(number for number, line in enumerate(prep.splitlines(), start=1) if "answer_html" in line)
    assert top.evidence[-1].where == f"prep_data.py:{label_line}"
    assert top.fix.startswith(f"In prep_data.py line {label_line}, decode the label it takes from cms_export.json:")
    assert "&nbsp; becomes a space" in top.fix

PREP_JOINING_ACCEPTED = '''import json, sys
bank = json.load(open(sys.argv[1]))
print(json.dumps([{"expected_answer": "|".join(item["accepted_answers"])} for item in bank]))
'''
PREP_TAKING_THE_FIRST = '''import json, sys
bank = json.load(open(sys.argv[1]))
print(json.dumps([{"expected_answer": item["accepted_answers"][0]} for item in bank]))
'''


@pytest.mark.parametrize("prep", [PREP_JOINING_ACCEPTED, PREP_TAKING_THE_FIRST], ids=["joined", "first"])
def test_accepted_answers_a_prep_script_joins_into_one_label(run, policy_endpoint, prep):
    """question_bank.json lists several accepted answers for some questions; prep_data.py joins them with '|' into
    one `expected_answer`, which string_match compares whole: right answers score 0, and the finding names the
    script's line. Taking one answer per label is no fault."""
    (run / "prep_data.py").write_text(prep)

    def from_the_bank(labels):
        (run / "question_bank.json").write_text(json.dumps([
            {"accepted_answers": [label, f"the {label}"] if task % 2 == 0 else [label]}
            for task, label in enumerate(labels)]))
        rows = json.loads(subprocess.run([sys.executable, "prep_data.py", "question_bank.json"], cwd=run,
                                         capture_output=True, text=True, check=True).stdout)
        return [row["expected_answer"] for row in rows]

    recollect_with_labels(run, policy_endpoint, from_the_bank)

    findings = {finding.id: finding for finding in diagnose(run).causes}
    if prep is PREP_TAKING_THE_FIRST:
        assert "accepted_answers_joined_into_one_label" not in findings
        return
    top = next(iter(findings.values()))
    assert (top.category, top.id) == ("data_schema", "accepted_answers_joined_into_one_label")
    assert top.evidence[-1].where == "prep_data.py:3"
    assert top.fix.startswith("In prep_data.py line 3, write one answer per `expected_answer`")

PREP_FROM_WIKI = '''import json, sys
bank = json.load(open(sys.argv[1]))
print(json.dumps([{"expected_answer": item["answer"].strip()} for item in bank]))
'''


@pytest.mark.parametrize("space", ["\u200b", ""], ids=["zero_width", "plain"])
def test_labels_copied_from_a_wiki_with_zero_width_spaces_name_the_prep_line_and_its_source(run, policy_endpoint,
                                                                                             space):
    """question_bank.json, copied from a wiki page, keeps a zero-width space inside multi-word answers; prep_data.py
    takes them as they are: right answers score 0, and the fix names the script's line and the bank. Without the
    invisible character, no finding."""
    (run / "prep_data.py").write_text(PREP_FROM_WIKI)
    (run / "run_eval.sh").write_text("python3 prep_data.py question_bank.json > labels.json\n")

    def from_the_wiki(labels):
        (run / "question_bank.json").write_text(json.dumps([{"answer": label.replace(" ", f"{space} ", 1)}
                                                            for label in labels]))
        rows = json.loads(subprocess.run([sys.executable, "prep_data.py", "question_bank.json"], cwd=run,
                                         capture_output=True, text=True, check=True).stdout)
        return [row["expected_answer"] for row in rows]

    recollect_with_labels(run, policy_endpoint, from_the_wiki)

    findings = {finding.id: finding for finding in diagnose(run).causes}
    if not space:
        assert "invisible_characters_in_expected_answers" not in findings
        return
    top = next(iter(findings.values()))
    assert (top.category, top.id) == ("data_schema", "invisible_characters_in_expected_answers")
    assert top.title.endswith("but for characters that print as nothing (zero width space U+200B)"), top.title
    assert top.fix.startswith("In prep_data.py line 3, strip them from the label it takes from question_bank.json: "
                              "`re.sub('[\\u200b")

def _renamed_host_works() -> bool:
    return subprocess.run(["unshare", "--uts", "hostname", "gpu-eval-renamed"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _renamed_host_works(), reason="needs root to rename the host in a UTS namespace")
def test_a_model_url_built_from_a_host_name_the_machine_cannot_resolve(run, policy_endpoint):
    """run_eval.sh builds MODEL_URL from $(hostname); on a node renamed without its /etc/hosts entry (a host name set
    in a private UTS namespace here) the name does not resolve, and the fix names the script's line."""
    port = policy_endpoint.url.split(":")[-1].split("/")[0]
    (run / "run_eval.sh").write_text(
        f"#!/bin/bash\nMODEL_URL=http://$(hostname):{port}/v1\n{sys.executable} -m gym_pipeline.cli collect "
        f"--inputs {MATERIALIZED_INPUTS_FILE} --output {ROLLOUTS_FILE} --model-url $MODEL_URL --env {ENV} --resume\n")
    (run / ROLLOUTS_FILE).write_text("")
    with (run / "logs" / "run_eval.log").open("w") as log:
        subprocess.run(["unshare", "--uts", "sh", "-c", "hostname gpu-eval-renamed && bash run_eval.sh"], cwd=run,
                       stdout=log, stderr=subprocess.STDOUT, timeout=120)
    assert "gpu-eval-renamed" in (run / "logs" / "run_eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("infra", "url_built_from_the_host_name")
    assert top.evidence[0].where == "run_eval.sh:2"
    assert "MODEL_URL=http://127.0.0.1:<port>/v1 instead of `$(hostname)`" in top.fix


TEMPLATED_PREP = '''"""prepare_data.py: questions.jsonl -> data.jsonl, each row shaped like row_template.json"""
import copy
import json

with open("row_template.json") as f:
    template = json.load(f)
with open("questions.jsonl") as questions, open("data.jsonl", "w") as out:
    for line in questions:
        question = json.loads(line)
        row = copy.deepcopy(template)
        row["responses_create_params"]["input"] = question["responses_create_params"]["input"]
        row["expected_answer"] = question["expected_answer"]
        out.write(json.dumps(row) + "\\n")
'''


@pytest.mark.parametrize("limit_from", ["template", "command"])
def test_answers_cut_at_a_token_limit_the_rows_ask_for_blame_the_data(tmp_path: Path, limit_from: str) -> None:
    """prepare_data.py builds the rows from a template copied from a classifier dataset, with `max_output_tokens: 16`:
    every answer is cut before its final line, and the data, not a command, set the limit. The same limit given on
    the materialize command is the run's setting (config)."""
    from script_support import CLI, MATERIALIZE, run_scripts

    params = {"input": [], **({"max_output_tokens": 16} if limit_from == "template" else {})}
    bundled = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    materialize = (MATERIALIZE if limit_from == "template" else
                   MATERIALIZE.replace(" --output", " --responses-create-params '{\"max_output_tokens\": 16}' --output"))
    run = run_scripts(tmp_path, ["python3 prepare_data.py\n" + materialize
                                 + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                                 "--model-url URL --env string_match --concurrency 4\n"],
                      files={"questions.jsonl": "".join(bundled[:8]), "prepare_data.py": TEMPLATED_PREP,
                             "row_template.json": json.dumps({"responses_create_params": params}, indent=2) + "\n"})

    report = diagnose(run)

    top = report.causes[0]
    if limit_from == "command":
        assert (top.category, top.id) == ("config", "truncated_answers"), [f.title for f in report.causes]
        return
    assert (top.category, top.id) == ("data_schema", "truncated_answers"), [f.title for f in report.causes]
    assert top.title.endswith("(max_output_tokens=16), which the rows themselves ask for")
    assert [line.where for line in top.evidence[2:]] == ["row_template.json:4", "prepare_data.py:5"]
    assert top.fix.startswith("Take `max_output_tokens` out of row_template.json (line 4")
