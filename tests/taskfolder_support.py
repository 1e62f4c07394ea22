"""Task folders for the tests: a working one, and one for each way a task-folder episode fails for real."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from gym_pipeline.config import load_sweep_config
from gym_pipeline.launchers.settings import DEFAULT_IMAGE
from gym_pipeline.serving.checkpoints import create_checkpoint
from gym_pipeline.serving.servers import serve_checkpoint
from gym_pipeline.taskfolders.knowledge import taskset_knowledge

BUNDLED_TASKS = Path(__file__).resolve().parents[1] / "gym_pipeline" / "examples" / "tasks"
PASSING_TEST = "echo checking; test -f /app/done && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt"


def write_task(root: Path, name: str, *, test: str = PASSING_TEST, solve: str = "touch /app/done",
               dockerfile: str | None = None, task_toml: str | None = None, verifier_timeout: float = 20,
               agent_timeout: float = 20) -> Path:
    """A small task folder; each keyword replaces one of its files."""
    folder = root / name
    (folder / "environment").mkdir(parents=True)
    (folder / "tests").mkdir()
    (folder / "solution").mkdir()
    (folder / "task.toml").write_text(task_toml if task_toml is not None else (
        f'version = "1.0"\n[metadata]\ndifficulty = "easy"\n[verifier]\ntimeout_sec = {verifier_timeout}\n'
        f"[agent]\ntimeout_sec = {agent_timeout}\n[environment]\ncpus = 1\nmemory_mb = 256\n"))
    (folder / "instruction.md").write_text(f"Create /app/done ({name}).\n")
    (folder / "environment" / "Dockerfile").write_text(dockerfile or f"FROM {DEFAULT_IMAGE}\nWORKDIR /app\n")
    (folder / "tests" / "test.sh").write_text(f"#!/bin/bash\n{test}\n")
    (folder / "solution" / "solve.sh").write_text(f"#!/bin/bash\n{solve}\n")
    return folder


# Each failure kind of seed 004's table, produced by a task that really behaves that way.
def verifier_timeout_task(root: Path) -> Path:
    return write_task(root, "verifier-sleeps", test="sleep 30", verifier_timeout=1)


def missing_reward_task(root: Path) -> Path:
    return write_task(root, "verifier-crashes", test="set -e\npython3 -c 'raise RuntimeError(\"fixture failed to load\")'\n"
                                                     "echo 1 > /logs/verifier/reward.txt")


def invalid_reward_task(root: Path) -> Path:
    return write_task(root, "reward-not-a-number", test="echo 'all tests passed' > /logs/verifier/reward.txt")


def entrypoint_failed_task(root: Path) -> Path:
    """An image whose entrypoint gives up 2 s after start, while the agent is still working."""
    return write_task(root, "entrypoint-exits", solve="sleep 6; touch /app/done", dockerfile=(
        f'FROM {DEFAULT_IMAGE}\nWORKDIR /app\nENTRYPOINT ["/bin/sh", "-c", "sleep 2; exit 3", "--"]\n'))


def trajectory_export_failed_task(root: Path) -> Path:
    """/logs/agent is a file in this image: the transcript cannot be written where the verifier reads it."""
    return write_task(root, "logs-agent-is-a-file", dockerfile=(
        f"FROM {DEFAULT_IMAGE}\nWORKDIR /app\nRUN mkdir -p /logs && touch /logs/agent\n"))


def task_deadline_task(root: Path) -> Path:
    """The agent uses all of its 1 s and the verifier all of its 1 s: with no grace, the budget is overrun."""
    return write_task(root, "overruns-budget", solve="sleep 5", agent_timeout=1, verifier_timeout=1,
                      test="echo 0 > /logs/verifier/reward.txt; sleep 5")


def unparsable_task(root: Path) -> Path:
    folder = write_task(root, "bad-toml")
    (folder / "task.toml").write_text('version = "1.0"\n[verifier]\ntimeout_sec = "soon"\n')
    return folder


def failing_build_task(root: Path) -> Path:
    return write_task(root, "build-fails", dockerfile=f"FROM {DEFAULT_IMAGE}\nRUN exit 7\n")


def slow_build_task(root: Path) -> Path:
    """A build step longer than the task's build_timeout_sec: the engine sends nothing while it runs."""
    return write_task(root, "slow-build", dockerfile=f"FROM {DEFAULT_IMAGE}\nRUN sleep 6\n",
                      task_toml='version = "1.0"\n[environment]\nbuild_timeout_sec = 2\n')


def missing_base_image_task(root: Path) -> Path:
    return write_task(root, "base-image-missing", dockerfile="FROM gym-pipeline-test/not-on-this-engine:1\n")


def copy_bundled(destination: Path) -> Path:
    shutil.copytree(BUNDLED_TASKS, destination)
    return destination


RUN_CHECKPOINT = "step_0100"
RUN_ENV = "terminal_tasks"


def run_tasks_script(tmp_path: Path, tasks: Path, *, before: str = "", known_tasks: Path | None = None,
                     repeats: int = 3) -> Path:
    """A run folder made by a user's run_tasks.sh, run for real: `before` (lines of its own), then `gym-pipeline
    stage` materialize, collect and profile of the taskset `tasks` against the simulated policy, which knows the
    tasks of `known_tasks` (default: `tasks`). Its output goes to logs/run_tasks.log."""
    run = tmp_path / "runs" / RUN_CHECKPOINT / RUN_ENV
    (run / "logs").mkdir(parents=True, exist_ok=True)
    (run / "sweep.yaml").write_text(
        f"name: nightly\nenvironments:\n  - {{name: {RUN_ENV}, tasks: {tasks}}}\ncheckpoints_dir: "
        f"{tmp_path / 'checkpoints'}\nruns_dir: {tmp_path / 'runs'}\nnum_repeats: {repeats}\nconcurrency: 2\n"
        "model_server: {kind: simulated}\n")
    create_checkpoint(tmp_path / "checkpoints" / RUN_CHECKPOINT, 100, 0.99, taskset_knowledge(known_tasks or tasks))
    config = load_sweep_config(run / "sweep.yaml")
    with serve_checkpoint(config.model_server, RUN_CHECKPOINT, config.checkpoint_dir(RUN_CHECKPOINT), run) as endpoint:
        stage = (f"{sys.executable} -m gym_pipeline.cli stage {{}} --sweep-config sweep.yaml --checkpoint "
                 f"{RUN_CHECKPOINT} --env {RUN_ENV} --code-version v1")
        (run / "run_tasks.sh").write_text(
            f"#!/bin/bash\ncd {run}\n{before}{stage.format('materialize')}\n"
            f"{stage.format('collect')} --model-url {endpoint.url} --model-name {endpoint.model_name}\n"
            f"{stage.format('profile')}\n")
        with (run / "logs" / "run_tasks.log").open("w") as log:
            subprocess.run(["bash", "run_tasks.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, check=True,
                           timeout=600)
    return run
