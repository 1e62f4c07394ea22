"""A task whose task.toml puts the team's tools on the verifier's search path as a shell profile would, run for real
in Docker: `[verifier] env = { PATH = "/opt/eval-tools/bin:$PATH" }`. task.toml expands nothing, so the verifier runs
with PATH holding the literal `$PATH`, finds no command, writes no reward, and the task never scores. The diagnosis
names the env line (config). With the image's search path spelled out, healthy."""

from __future__ import annotations

from pathlib import Path

import pytest
import taskfolder_support as fixtures
from launcher_support import docker_engine

from gym_pipeline.diagnose import diagnose

pytestmark = pytest.mark.integration  # needs the Docker engine
SPELLED_OUT = "/opt/eval-tools/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


@pytest.mark.parametrize("path", ["/opt/eval-tools/bin:$PATH", SPELLED_OUT])
def test_a_shell_variable_in_a_task_env_value_is_not_expanded(tmp_path: Path, path: str) -> None:
    docker_engine()
    tasks = tmp_path / "tasks"
    toml = ('version = "1.0"\n[metadata]\ndifficulty = "easy"\n[verifier]\ntimeout_sec = 20\n'
            f'env = {{ PATH = "{path}" }}\n[agent]\ntimeout_sec = 20\n[environment]\ncpus = 1\nmemory_mb = 256\n')
    fixtures.write_task(tasks, "tools-on-path", task_toml=toml,
                        test="if test -f /app/done; then echo 1 > /logs/verifier/reward.txt; "
                             "else echo 0 > /logs/verifier/reward.txt; fi")
    fixtures.write_task(tasks, "greeting")
    run = fixtures.run_tasks_script(tmp_path, tasks)

    report = diagnose(run)

    if path == SPELLED_OUT:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "task_env_value_with_a_shell_variable"), [
        f.title for f in report.causes]
    assert ("tasks/tools-on-path/task.toml sets [verifier] env PATH = '/opt/eval-tools/bin:$PATH': task.toml does not "
            "expand `$PATH`, and task tools-on-path never scored") in top.title, top.title
    assert "tasks/tools-on-path/task.toml, give [verifier] env PATH its whole value" in top.fix, top.fix
