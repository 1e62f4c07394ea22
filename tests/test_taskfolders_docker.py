"""Task folders on the real Docker engine: every failure kind of seed 004 produced for real, oracle validation,
and task-folder partitions swept through Dagster with rewards rising, staleness and the diagnosis."""

import json
import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest
import taskfolder_support as fixtures
from launcher_support import docker_engine

from gym_pipeline import diagnose
from gym_pipeline.assets.partitions import CHECKPOINTS, sweep_partition_key
from gym_pipeline.core.materialize import MaterializationSettings
from gym_pipeline.demo import QUIET_RUN_CONFIG, create_workspace, prepare_dagster_home
from gym_pipeline.launchers.docker import LABEL_RUN_DIR
from gym_pipeline.status import sweep_status
from gym_pipeline.sweep import EVAL_SWEEP_JOB, RECOLLECT_JOB, build_definitions
from gym_pipeline.taskfolders import collect
from gym_pipeline.taskfolders.agents import run_oracle
from gym_pipeline.taskfolders.demo_taskset import TASKSET_ENVIRONMENT
from gym_pipeline.taskfolders.episode import EpisodeSettings, run_episode
from gym_pipeline.taskfolders.loader import load_task, load_taskset
from gym_pipeline.taskfolders.materialize import materialize_taskset
from gym_pipeline.taskfolders.sandbox import ImageBuildError, ensure_image, image_tag

pytestmark = pytest.mark.integration  # needs the real Docker engine
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def engine():
    return docker_engine()


def _left_behind(engine, run_dir: Path) -> list:
    return engine.containers.list(all=True, filters={"label": f"{LABEL_RUN_DIR}={run_dir}"})


@pytest.mark.parametrize(("make", "reward", "kind", "masked", "stage"), [
    (fixtures.verifier_timeout_task, 0.0, "harbor:verifier_timeout", False, None),
    (fixtures.missing_reward_task, 0.0, "harbor:missing_reward", False, None),
    (fixtures.invalid_reward_task, 0.0, "harbor:invalid_reward", False, None),
    (fixtures.entrypoint_failed_task, 0.0, "harbor:entrypoint_failed", True, None),
    (fixtures.trajectory_export_failed_task, 0.0, "harbor:trajectory_export_failed", True, None),
    (fixtures.task_deadline_task, None, "harbor:task_deadline", False, "verification"),
])
def test_each_failure_kind_for_real(engine, tmp_path, make, reward, kind, masked, stage):
    task = load_task(make(tmp_path / "tasks"))
    image, _ = ensure_image(engine, task)
    settings = EpisodeSettings(grace_s=0 if kind == "harbor:task_deadline" else 60, run_dir=tmp_path)
    outcome = run_episode(engine, task, image, run_oracle, tmp_path / "episode", settings)
    assert (outcome.reward, outcome.failure_kind, outcome.mask_sample, outcome.failed_stage) == (
        reward, kind, masked, stage)
    if stage is None:
        assert (tmp_path / "episode" / "agent" / "transcript.json").is_file()
    assert _left_behind(engine, tmp_path) == []


def test_the_verifier_output_is_kept_and_a_crash_is_explained(engine, tmp_path):
    task = load_task(fixtures.missing_reward_task(tmp_path / "tasks"))
    outcome = run_episode(engine, task, ensure_image(engine, task)[0], run_oracle, tmp_path / "ep", EpisodeSettings())
    assert "RuntimeError: fixture failed to load" in (tmp_path / "ep" / "verifier" / "test-stdout.txt").read_text()
    assert "test.sh exited 1" in outcome.failure_reason


@pytest.mark.parametrize(("make", "reason"), [
    (fixtures.failing_build_task, "returned a non-zero code: 7"),
    (fixtures.missing_base_image_task, "gym-pipeline-test/not-on-this-engine"),
    (fixtures.slow_build_task, r"ran past \[environment\].build_timeout_sec=2"),
])
def test_a_task_whose_image_cannot_be_had_does_not_load(engine, tmp_path, make, reason):
    with pytest.raises(ImageBuildError, match=reason):
        ensure_image(engine, load_task(make(tmp_path)))


def _validate(tasks: Path, output: Path, env=None) -> tuple[int, dict]:
    done = subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "tasks", "validate", str(tasks), "--json",
                           "--output-dir", str(output)], capture_output=True, text=True, cwd=REPO, timeout=600,
                          env=env)
    return done.returncode, json.loads(done.stdout) if done.stdout.strip() else {"stderr": done.stderr}


def test_tasks_validate_passes_on_the_bundled_taskset(engine, tmp_path):
    code, report = _validate(fixtures.BUNDLED_TASKS, tmp_path / "out")
    assert code == 0, report
    assert len(report["tasks"]) >= 8 and {entry["status"] for entry in report["tasks"]} == {"passed"}
    summary = json.loads((tmp_path / "out" / "rollouts_run_summary.json").read_text())
    assert all(Path(entry["verifier_log_dir"], "test-stdout.txt").is_file() for entry in summary["tasks"])


def test_tasks_validate_reports_broken_tasks_clearly(engine, tmp_path):
    tasks = tmp_path / "tasks"
    fixtures.write_task(tasks, "works")
    for make in (fixtures.invalid_reward_task, fixtures.unparsable_task, fixtures.failing_build_task):
        make(tasks)
    code, report = _validate(tasks, tmp_path / "out")
    assert code == 1
    by_task = {entry["task"]: entry for entry in report["tasks"]}
    assert by_task["works"]["status"] == "passed"
    assert by_task["reward-not-a-number"] | {"reason": None} == {
        "task": "reward-not-a-number", "status": "failed", "reward": 0.0, "failure_kind": "harbor:invalid_reward",
        "reason": None}
    assert by_task["bad-toml"]["status"] == "skipped"
    assert "task.toml:3: field 'verifier.timeout_sec'" in by_task["bad-toml"]["reason"]
    assert by_task["build-fails"]["status"] == "skipped" and "image build failed" in by_task["build-fails"]["reason"]
    assert set(json.loads((tmp_path / "out" / "skipped.json").read_text())) == {"bad-toml", "build-fails"}
    assert _validate(tmp_path / "nothing-here", tmp_path / "out2")[0] == 2


def test_no_sandbox_when_the_engine_is_down(tmp_path):
    tasks = tmp_path / "tasks"
    fixtures.write_task(tasks, "works")
    env = os.environ | {"DOCKER_HOST": f"unix://{tmp_path}/no-engine.sock"}
    code, report = _validate(tasks, tmp_path / "out", env=env)
    assert code == 1 and report["tasks"][0]["status"] == "failed"
    assert "Could not set up sandbox: no Docker engine answers" in report["tasks"][0]["reason"]
    failures = [json.loads(line) for line in (tmp_path / "out" / "rollouts_failures.jsonl").read_text().splitlines()]
    assert [f["_ng_failure_stage"] for f in failures] == ["seed"] * 3 and not any(f["_ng_failure_terminal"] for f in failures)
    result = diagnose.diagnose(tmp_path / "out")
    assert not result.healthy


def test_a_task_image_is_built_again_when_the_base_image_it_is_from_was_rebuilt(engine, tmp_path):
    """A team's base image holding the task's data, rebuilt under the same tag with the data fixed: the task's own
    environment/ did not change, and its cached image (on the old base) must not be reused."""
    base = "gym-pipeline-test/eval-base:latest"
    context = tmp_path / "base"
    context.mkdir()

    def build_base(word: str) -> None:
        (context / "Dockerfile").write_text(f"FROM {fixtures.DEFAULT_IMAGE}\nRUN echo {word} > /opt/top-word.txt\n")
        engine.images.build(path=str(context), tag=base, rm=True, network_mode="none")

    try:
        build_base("and")
        task = load_task(fixtures.write_task(tmp_path / "tasks", "top-word", dockerfile=f"FROM {base}\nWORKDIR /app\n"))
        first, built = ensure_image(engine, task)
        assert built and ensure_image(engine, task) == (first, False)  # cached while the base is the same

        build_base("the")  # the fix, same tag
        again, rebuilt = ensure_image(engine, task)

        assert rebuilt and again == first
        assert engine.containers.run(again, "cat /opt/top-word.txt", remove=True).decode().strip() == "the"
    finally:
        engine.images.remove(image_tag(load_task(tmp_path / "tasks" / "top-word")), force=True)
        engine.images.remove(base, force=True)


def test_a_docker_config_naming_a_missing_credential_helper_skips_the_build_with_its_reason(engine, tmp_path):
    tasks = tmp_path / "tasks"
    # an image not built yet (its environment/ is this test's own), so the client asks for logins before building
    fixtures.write_task(tasks, "greet", dockerfile=f"FROM {fixtures.DEFAULT_IMAGE}\nLABEL purpose=credential-helper\n")
    laptop_config = tmp_path / "dotfiles" / "docker"
    laptop_config.mkdir(parents=True)
    (laptop_config / "config.json").write_text('{"credsStore": "desktop"}')
    code, report = _validate(tasks, tmp_path / "out", env=os.environ | {"DOCKER_CONFIG": str(laptop_config)})
    assert code == 1 and report["tasks"][0]["status"] == "skipped"
    assert "docker-credential-desktop not installed" in report["tasks"][0]["reason"]
    assert str(laptop_config / "config.json") in report["tasks"][0]["reason"]
    top = diagnose.diagnose(tmp_path / "out").causes[0]
    assert top.category == "infra" and "credsStore" in top.fix and "DOCKER_CONFIG" in top.fix


def test_a_run_of_every_failure_kind_is_summarized_and_diagnosed(engine, tmp_path):
    tasks = tmp_path / "tasks"
    for make in (fixtures.verifier_timeout_task, fixtures.missing_reward_task, fixtures.invalid_reward_task,
                 fixtures.entrypoint_failed_task, fixtures.trajectory_export_failed_task, fixtures.failing_build_task):
        make(tasks)
    fixtures.write_task(tasks, "works")
    taskset = load_taskset(tasks)
    rows = materialize_taskset(taskset, MaterializationSettings(num_repeats=1, agent="oracle"))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "rollouts_materialized_inputs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(collect.TasksNotLoadable, match=r"1 task\(s\) could not load"):
        collect.run_tasks(rows, taskset, lambda row: run_oracle, run_dir / "rollouts.jsonl", collect.TaskRunSettings())
    settings = collect.TaskRunSettings(skip_unloadable=True, episode=EpisodeSettings(run_dir=run_dir))
    collect.run_tasks(rows, taskset, lambda row: run_oracle, run_dir / "rollouts.jsonl", settings)
    summary = json.loads((run_dir / "rollouts_run_summary.json").read_text())
    statuses = {entry["task"]: (entry["status"], entry["failure_kind"]) for entry in summary["tasks"]}
    assert statuses == {
        "verifier-sleeps": ("failed", "harbor:verifier_timeout"), "verifier-crashes": ("failed", "harbor:missing_reward"),
        "reward-not-a-number": ("failed", "harbor:invalid_reward"),
        "entrypoint-exits": ("masked", "harbor:entrypoint_failed"),
        "logs-agent-is-a-file": ("masked", "harbor:trajectory_export_failed"),
        "build-fails": ("skipped", None), "works": ("passed", None)}
    rows_written = [json.loads(line) for line in (run_dir / "rollouts.jsonl").read_text().splitlines()]
    assert {row["failure_kind"] for row in rows_written} >= {"harbor:verifier_timeout", "harbor:entrypoint_failed"}
    report = diagnose.render_text(diagnose.diagnose(run_dir))
    for kind in ("harbor:verifier_timeout", "harbor:missing_reward", "harbor:invalid_reward",
                 "harbor:entrypoint_failed", "harbor:trajectory_export_failed"):
        assert kind in report, report
    assert _left_behind(engine, run_dir) == []


@pytest.fixture(scope="module")
def task_sweep(engine, tmp_path_factory):
    """The demo workspace with the bundled taskset, its task-folder partitions swept over two checkpoints."""
    home = tmp_path_factory.mktemp("home")
    config = create_workspace(home, checkpoint_count=2, taskset=True)
    defs = build_definitions(config)
    instance = dg.DagsterInstance.from_config(str(prepare_dagster_home(home)))
    instance.add_dynamic_partitions(CHECKPOINTS.name, ["step_0100", "step_0200"])
    for job in ("observe_environments", "observe_checkpoints"):
        defs.resolve_job_def(job).execute_in_process(instance=instance, run_config=QUIET_RUN_CONFIG)
    for checkpoint in ("step_0100", "step_0200"):
        for env in (TASKSET_ENVIRONMENT, "mcqa"):
            result = defs.resolve_job_def(EVAL_SWEEP_JOB).execute_in_process(
                instance=instance, partition_key=sweep_partition_key(checkpoint, env), run_config=QUIET_RUN_CONFIG)
            assert result.success
    yield home, config, defs, instance
    instance.dispose()


def test_the_bundled_taskset_rewards_rise_across_checkpoints(task_sweep):
    home, config, _, _ = task_sweep
    means = []
    for checkpoint in ("step_0100", "step_0200"):
        run_dir = config.run_dir(checkpoint, TASKSET_ENVIRONMENT)
        rows = [json.loads(line) for line in (run_dir / "rollouts.jsonl").read_text().splitlines()]
        assert len(rows) == 4 * len(load_taskset(home / "tasks").tasks)
        means.append(sum(row["reward"] for row in rows) / len(rows))
        transcript = json.loads(Path(rows[0]["episode_log_dir"], "agent", "transcript.json").read_text())
        assert transcript["agent"] == "terminal_agent" and transcript["messages"][1]["role"] == "user"
        assert json.loads((run_dir / "diagnosis.json").read_text())["category"] == "healthy"
    assert means[0] < means[1]


def test_an_edited_task_folder_marks_only_its_partitions_stale_and_old_rows_refuse(task_sweep):
    home, config, defs, instance = task_sweep
    test_sh = home / "tasks" / "top-word" / "tests" / "test.sh"
    test_sh.write_text(test_sh.read_text() + "# stricter check coming\n")
    statuses = {(s.checkpoint, s.env): s for s in sweep_status(home)}
    for checkpoint in ("step_0100", "step_0200"):
        assert statuses[(checkpoint, TASKSET_ENVIRONMENT)].assets["materialized_inputs"] == "STALE"
        assert set(statuses[(checkpoint, "mcqa")].assets.values()) == {"FRESH"}
    result = defs.resolve_job_def(RECOLLECT_JOB).execute_in_process(
        instance=instance, partition_key=sweep_partition_key("step_0100", TASKSET_ENVIRONMENT),
        run_config=QUIET_RUN_CONFIG, raise_on_error=False)
    assert not result.success
    check = instance.event_log_storage.get_latest_asset_check_execution_by_key(
        [dg.AssetCheckKey(dg.AssetKey("materialized_inputs"), "inputs_match_source")])
    assert check
    from gym_pipeline.checks import inputs_report

    report = inputs_report(config, "step_0100", TASKSET_ENVIRONMENT)
    assert report.stale and "task top-word: Task folder" in report.summary()
    assert "changed since materialization; re-materialize the taskset" in report.summary()
    # the diagnosis of the partition says the same, from the rows' digests
    text = diagnose.render_text(diagnose.diagnose(config.run_dir("step_0100", TASKSET_ENVIRONMENT)))
    assert "top-word" in text
