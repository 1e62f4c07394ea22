"""A task whose test rejects the task's own solution, run for real in Docker: the test derives the expected count of
ERROR lines with a case-insensitive `grep -ci error`, which also counts an INFO line about a transient error, so
the solution's `grep -c ERROR` (the right answer) scores 0 in every episode. The diagnosis names the test's lines
that decide the reward (verifier/runtime), not the model. With `grep -c ERROR` in the test too, healthy."""

from __future__ import annotations

from pathlib import Path

import pytest
import taskfolder_support as fixtures
from launcher_support import docker_engine

from gym_pipeline.diagnose import diagnose
from gym_pipeline.launchers.settings import DEFAULT_IMAGE

pytestmark = pytest.mark.integration  # needs the Docker engine
LOG = "INFO start\nERROR disk full\nINFO retry after transient error\nERROR disk full\nINFO done\n"
TEST = """cd /app
expected="$(EXPECTED /app/server.log)"
got="$(tr -d '[:space:]' < /app/count.txt 2>/dev/null)"
echo "expected $expected, got '$got'"
if test "$got" = "$expected"; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi"""


@pytest.mark.parametrize("expected_by", ["grep -ci error", "grep -c ERROR"])
def test_a_test_that_fails_the_tasks_own_solution_is_named(tmp_path: Path, expected_by: str) -> None:
    docker_engine()
    tasks = tmp_path / "tasks"
    task = fixtures.write_task(tasks, "count-error-lines", test=TEST.replace("EXPECTED", expected_by),
                               solve="grep -c ERROR /app/server.log > /app/count.txt",
                               dockerfile=f"FROM {DEFAULT_IMAGE}\nWORKDIR /app\nCOPY server.log /app/\n")
    (task / "environment" / "server.log").write_text(LOG)
    (task / "instruction.md").write_text("Count the lines of /app/server.log that contain ERROR (in capitals) and "
                                         "write the count to /app/count.txt.\n")
    fixtures.write_task(tasks, "greeting")
    run = fixtures.run_tasks_script(tmp_path, tasks)

    report = diagnose(run)

    if expected_by == "grep -c ERROR":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "test_rejects_the_tasks_own_solution"), [
        f.title for f in report.causes]
    assert top.title.startswith("The test of count-error-lines fails the task's own solution: 3 episodes ran "
                                "solution/solve.sh command for command")
    assert "(with the solution it printed `expected 3, got '2'`)" in top.fix
    assert "line 3 `expected=\"$(grep -ci error /app/server.log)\"`" in top.fix
    assert "`grep -c ERROR /app/server.log > /app/count.txt` must satisfy them" in top.fix
