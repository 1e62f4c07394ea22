"""A task whose test rejects the task's own solution, run for real in Docker: the test derives the expected count of
ERROR lines with a case-insensitive `grep -ci error`, which also counts an INFO line about a transient error, so
the solution's `grep -c ERROR` (the right answer) scores 0 in every episode. The diagnosis names the test's lines
that decide the reward (verifier/runtime), not the model. With `grep -c ERROR` in the test too, healthy.

The same task run in a prebuilt image (task.toml's `docker_image`) built before its server.log and test were
refreshed: the solution counts the old log's errors and the new test fails it in every episode. The diagnosis names
the image and the script that builds it (cache/resume). Rebuilt after the refresh, healthy.

A task whose Dockerfile copies its word list from the data team's export image (`COPY --from=...`): the export is
rebuilt with one more word and the test updated, but the task's image, cached on its unchanged Dockerfile, keeps the
old list, and the solution's sorted list fails the new test (cache/resume, the COPY line named). With the export
unchanged, healthy."""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import pytest
import taskfolder_support as fixtures
from launcher_support import docker_engine
from script_support import CLI

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


@pytest.mark.parametrize("rebuilt", [False, True])
def test_a_prebuilt_task_image_older_than_its_refreshed_folder_is_named(tmp_path: Path, rebuilt: bool) -> None:
    docker_engine()
    image = f"gym-pipeline-tests/count-error-lines:{uuid.uuid4().hex[:8]}"
    tasks = tmp_path / "tasks"
    task = fixtures.write_task(tasks, "count-error-lines", test=TEST.replace("EXPECTED", "grep -c ERROR"),
                               solve="grep -c ERROR /app/server.log > /app/count.txt",
                               dockerfile=f"FROM {DEFAULT_IMAGE}\nWORKDIR /app\nCOPY server.log /app/\n")
    (task / "instruction.md").write_text("Count the lines of /app/server.log that contain ERROR (in capitals) and "
                                         "write the count to /app/count.txt.\n")
    (task / "environment" / "server.log").write_text(LOG)
    (task / "task.toml").write_text((task / "task.toml").read_text().replace(
        "[environment]\n", f'[environment]\ndocker_image = "{image}"\n'))
    fixtures.write_task(tasks, "greeting")
    build = f"docker build -q -t {image} {task / 'environment'}"
    (tmp_path / "build_images.sh").write_text(f"#!/bin/bash\n# the task images, built once a week\n{build}\n")
    try:
        subprocess.run(["bash", str(tmp_path / "build_images.sh")], check=True, capture_output=True, timeout=300)
        # the data refreshed since: one more error, and the test expects what the log now says
        (task / "environment" / "server.log").write_text(LOG + "ERROR out of memory\n")
        (task / "tests" / "test.sh").write_text((task / "tests" / "test.sh").read_text().replace(
            '$(grep -c ERROR /app/server.log)', "3"))
        run = fixtures.run_tasks_script(tmp_path, tasks, before=f"{build}\n" if rebuilt else "")
        (run / "build_images.sh").write_text((tmp_path / "build_images.sh").read_text())
    finally:
        subprocess.run(["docker", "rmi", "-f", image], capture_output=True, timeout=60)

    report = diagnose(run)

    if rebuilt:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "test_rejects_the_tasks_own_solution"), [
        f.title for f in report.causes]
    assert top.title.startswith(f"count-error-lines runs in its prebuilt image {image} (task.toml's docker_image), "
                                "where the task's own solution fails its test")
    assert f"(`{build}` in build_images.sh)" in top.fix


def _image_of(folder: Path, tag: str, files: dict[str, str], dockerfile: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    (folder / "Dockerfile").write_text(dockerfile)
    subprocess.run(["docker", "build", "-q", "-t", tag, str(folder)], check=True, capture_output=True, timeout=300)


@pytest.mark.parametrize("export_rebuilt", [True, False])
def test_task_files_copied_from_an_image_rebuilt_since_the_task_image_was_cached(tmp_path: Path,
                                                                                export_rebuilt: bool) -> None:
    docker_engine()
    export = f"gym-pipeline-tests/words-export:{uuid.uuid4().hex[:8]}"
    exported = f"FROM {DEFAULT_IMAGE}\nCOPY words.txt /data/words.txt\n"
    tasks = tmp_path / "tasks"
    copy_line = f"COPY --from={export} /data/words.txt /app/words.txt"
    task = fixtures.write_task(tasks, "sort-words", solve="sort /app/words.txt > /app/sorted.txt",
                               test='test "$(tr "\\n" " " < /app/sorted.txt)" = "apple banana cherry " && echo 1 > '
                                    "/logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt",
                               dockerfile=f"FROM {DEFAULT_IMAGE}\nWORKDIR /app\n{copy_line}\n")
    (task / "instruction.md").write_text("Sort the words of /app/words.txt (one per line) into /app/sorted.txt.\n")
    fixtures.write_task(tasks, "greeting")
    try:
        _image_of(tmp_path / "export", export, {"words.txt": "banana\napple\ncherry\n"}, exported)
        # the oracle builds (and caches) the task's image on this week's export
        subprocess.run([*CLI.split(), "tasks", "validate", str(tasks)], capture_output=True, timeout=600)
        if export_rebuilt:  # the data team adds a word; the test follows the export
            _image_of(tmp_path / "export", export, {"words.txt": "banana\napple\ncherry\ndate\n"}, exported)
            test = task / "tests" / "test.sh"
            test.write_text(test.read_text().replace("cherry ", "cherry date "))
        run = fixtures.run_tasks_script(tmp_path, tasks)
    finally:
        subprocess.run(["docker", "rmi", "-f", export], capture_output=True, timeout=60)

    report = diagnose(run)

    if not export_rebuilt:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "test_rejects_the_tasks_own_solution"), [
        f.title for f in report.causes]
    assert top.title.startswith(f"sort-words's sandbox takes its files from another image (Dockerfile:3 `{copy_line}`)")
    assert f"pin {export} by digest" in top.fix
