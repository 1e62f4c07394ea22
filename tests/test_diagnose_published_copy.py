"""Results published with a copy that never overwrites (`cp -n`): the published folder keeps an earlier run's files."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES

from gym_pipeline.diagnose import diagnose

RUN = FIXTURES / "clean_run"


def publish_twice(run: Path, copy: str) -> None:
    """Last week's results published, then this week's over them, by the user's publish.sh, for real. This week's
    rollouts are last week's in another order, as a rerun's come (Gym writes them as they complete)."""
    (run / "publish.sh").write_text(f"#!/bin/bash\nmkdir -p {run}/shared/evals\n{copy} {run}/results/. "
                                    f"{run}/shared/evals/\n")
    shutil.copytree(RUN, run / "results")
    subprocess.run(["bash", "publish.sh"], cwd=run, check=True)
    rollouts = run / "results" / "rollouts.jsonl"
    rollouts.write_text("".join(reversed(rollouts.read_text().splitlines(keepends=True))))
    subprocess.run(["bash", "publish.sh"], cwd=run, check=True)


def test_a_no_clobber_publish_keeps_last_weeks_files_in_the_shared_folder(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    publish_twice(run, "cp -rn")

    report = diagnose(run)

    top = report.causes[0]
    assert (report.category, top.id) == ("cache_resume", "results_published_without_overwriting"), \
        [f.title for f in report.causes]
    assert top.title.startswith("publish.sh publishes with a copy that never overwrites: shared/evals keeps an "
                                "earlier run's rollouts.jsonl")
    assert top.evidence[0].where == "publish.sh:3" and "publish.sh" in top.fix


@pytest.mark.parametrize("copy", ["cp -r", "cp -rf --preserve=timestamps"])
def test_a_publish_that_replaces_the_files_is_no_fault(tmp_path, copy):
    run = tmp_path / "run"
    run.mkdir()
    publish_twice(run, copy)

    assert all(f.id != "results_published_without_overwriting" for f in diagnose(run).findings)
