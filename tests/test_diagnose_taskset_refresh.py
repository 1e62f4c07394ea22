"""A run script that refreshes the local taskset from the team's share before each run, run for real in Docker: with
`cp -rnv share/tasks/. tasks/` (no-clobber, "keep local edits"), last week's test.sh, which checks the wrong file,
stays in place although the share holds the fixed one, and the task's right answers score 0 in every episode. The
diagnosis names the copy (cache/resume), whether the share is still there to compare or gone since. Copied with
`cp -rv`, the fixed test grades the run: healthy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import taskfolder_support as fixtures
from launcher_support import docker_engine

from gym_pipeline.diagnose import diagnose

pytestmark = pytest.mark.integration  # needs the Docker engine
# last week's test checked a file the instruction never asked for
OLD_TEST = fixtures.PASSING_TEST.replace("/app/done", "/app/finished")


@pytest.mark.parametrize("copy, share_kept", [("cp -rnv", True), ("cp -rnv", False), ("cp -rv", False)],
                         ids=["no_clobber_share_kept", "no_clobber_share_gone", "overwriting"])
def test_a_taskset_refreshed_without_overwriting_keeps_last_weeks_test(tmp_path: Path, copy: str,
                                                                       share_kept: bool) -> None:
    docker_engine()
    share = tmp_path / "share" / "tasks"
    fixtures.write_task(share, "greeting")
    local = tmp_path / "runs" / fixtures.RUN_CHECKPOINT / fixtures.RUN_ENV / "tasks"
    fixtures.write_task(local, "greeting", test=OLD_TEST)  # the local copy, from last week
    run = fixtures.run_tasks_script(tmp_path, local, known_tasks=share, before=(
        f"echo '== refresh the taskset from the share (keep local edits)'\n{copy} {share}/. tasks/ || true\n"))
    if not share_kept:  # a scratch copy of the share, removed since
        shutil.rmtree(tmp_path / "share")

    report = diagnose(run)

    if copy == "cp -rv":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "taskset_refreshed_without_overwriting"), [
        f.title for f in report.causes]
    assert top.title == ("run_tasks.sh:4 refreshes the taskset with a copy that never overwrites: "
                         "tasks/greeting/tests/test.sh is the local copy from before, not the share's")
    assert ("differs from" if share_kept else "greeting scored 0 in every episode") in top.evidence[1].text
    assert "`rsync -a --delete" in top.fix and "no-clobber" in top.fix
