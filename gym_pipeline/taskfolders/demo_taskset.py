"""The bundled taskset in the demo workspace: swept beside the JSONL environments when a Docker engine answers.

The bundled `sweep.yaml` carries the environment as a commented line; the demo uncomments it (and copies the
tasks into the workspace) when an engine answers and has the base image the tasks' Dockerfiles start FROM.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from docker.errors import DockerException

from gym_pipeline.core.formats import write_bytes_atomic
from gym_pipeline.launchers.settings import DEFAULT_IMAGE
from gym_pipeline.taskfolders.sandbox import SandboxUnavailable, docker_client

BUNDLED_TASKS = Path(__file__).resolve().parents[1] / "examples" / "tasks"
TASKSET_ENVIRONMENT = "terminal_tasks"
_COMMENTED = f"  # - {{name: {TASKSET_ENVIRONMENT}, tasks: tasks}}"
START_DOCKER_HINT = ("no Docker engine answers, so the task-folder environment is left out; start one with "
                     "`bash scripts/dev-services.sh up docker`")


def sandbox_engine_problem() -> str | None:
    """Why the bundled tasks cannot run here (None when they can)."""
    try:
        client = docker_client()
    except SandboxUnavailable:
        return START_DOCKER_HINT
    try:
        client.images.get(DEFAULT_IMAGE)
    except DockerException:
        return (f"the Docker engine lacks {DEFAULT_IMAGE}, which the bundled tasks start FROM; "
                "`bash scripts/dev-services.sh up docker` builds it")
    return None


def enable_bundled_taskset(config_path: Path) -> bool:
    """Uncomment the taskset environment in a workspace's sweep.yaml and copy the tasks beside it; False when
    the file has no such line (written by hand, or enabled already)."""
    text = config_path.read_text(encoding="utf-8")
    if _COMMENTED not in text:
        return False
    tasks_dir = config_path.parent / "tasks"
    if not tasks_dir.exists():
        shutil.copytree(BUNDLED_TASKS, tasks_dir)
    enabled = text.replace(_COMMENTED, _COMMENTED.replace("# - ", "- ", 1).split("   #")[0], 1)
    write_bytes_atomic(config_path, enabled.encode())
    return True
