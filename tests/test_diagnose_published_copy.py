"""Copies that keep the file in place: results published or copied back with `cp -n` keep an earlier run's files,
and data copied in with `cp -u` stays last week's when the new file carries an older time."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FIXTURES

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

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


CLI = f"{sys.executable} -m gym_pipeline.cli"
COLLECT = (f"{CLI} materialize --input {{data}} --num-repeats 2 --agent string_match_simple_agent "
           "--output rollouts_materialized_inputs.jsonl\n"
           f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url {{url}} "
           "--env string_match --concurrency 8\n"
           f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


def dataset_rows() -> list[str]:
    return get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)


def run_script(run: Path, log: str, *arguments: str) -> None:
    (run / "logs").mkdir(exist_ok=True)
    with (run / "logs" / log).open("w") as output:
        subprocess.run(["bash", "run_eval.sh", *arguments], cwd=run, stdout=output, stderr=subprocess.STDOUT,
                       check=True)


@pytest.mark.parametrize("copy", ["cp -n", "cp"])
def test_results_copied_back_from_scratch_without_overwriting_keep_last_weeks(tmp_path, policy_endpoint, copy):
    """run_eval.sh collects on scratch and copies the results back with `cp -n`: this week's (labels fixed, another
    pass@1) are skipped, and only the log's printed pass@1 still tells. With a plain `cp` the folder is this week's."""
    run = tmp_path / "run"
    run.mkdir()
    rows = dataset_rows()[:12]
    (run / "week48.jsonl").write_text("".join(rows))
    (run / "week49.jsonl").write_text("".join(row.replace('"expected_answer": "', '"expected_answer": "not ')
                                              if index % 3 == 0 else row for index, row in enumerate(rows)))
    (run / "run_eval.sh").write_text(
        "set -e\nSCRATCH=$(mktemp -d)\ncd $SCRATCH\n" + COLLECT.format(data=f"{run}/$1", url="$2")
        + f"mkdir -p {run}/results\n{copy} $SCRATCH/*.jsonl {run}/results/\nrm -rf $SCRATCH\n")
    run_script(run, "run_eval_week48.log", "week48.jsonl", policy_endpoint.url)
    run_script(run, "run_eval_week49.log", "week49.jsonl", policy_endpoint.url)

    findings = {finding.id: finding for finding in diagnose(run).causes}

    if copy == "cp":
        assert "copy_kept_the_existing_file" not in findings
        return
    top = next(iter(findings.values()))
    assert (top.category, top.id) == ("cache_resume", "copy_kept_the_existing_file"), list(findings)
    assert top.title.startswith("run_eval.sh copies the results back with `cp -n`: the folder's rollouts")
    assert [line.where.split(":")[0] for line in top.evidence] == ["run_eval.sh", "logs/run_eval_week49.log"]
    assert top.fix.startswith(f"In run_eval.sh line {_line_of(run / 'run_eval.sh', 'cp -n')} (`cp -n ")


@pytest.mark.parametrize("archived_days_ago", [10, 0])
def test_an_update_copy_keeps_last_weeks_tasks_when_the_archive_restores_older_times(tmp_path, policy_endpoint,
                                                                                      archived_days_ago):
    """This week's tasks come in an archive that restores the time the data team saved them, older than last week's
    copy in the run folder: `cp -u` keeps last week's, and the run evaluates it. Saved after it, they are copied."""
    run = tmp_path / "run"
    (run / "exports").mkdir(parents=True)
    rows = dataset_rows()
    (run / "tasks.jsonl").write_text("".join(rows[:10]))
    last_week = time.time() - 7 * 86400
    os.utime(run / "tasks.jsonl", (last_week, last_week))
    staged = tmp_path / "staged"
    staged.mkdir()
    (staged / "tasks.jsonl").write_text("".join(rows[10:20]))
    saved = time.time() - archived_days_ago * 86400
    os.utime(staged / "tasks.jsonl", (saved, saved))
    subprocess.run(["tar", "czf", str(run / "exports" / "weekly_tasks.tar.gz"), "-C", str(staged), "tasks.jsonl"],
                   check=True)
    (run / "run_eval.sh").write_text("set -e\ntar xzf exports/weekly_tasks.tar.gz -C exports/\n"
                                     "cp -u exports/tasks.jsonl tasks.jsonl\n" + COLLECT.format(data="tasks.jsonl",
                                                                                               url="$1"))
    run_script(run, "run_eval.log", policy_endpoint.url)

    findings = {finding.id: finding for finding in diagnose(run).causes}

    if archived_days_ago == 0:
        assert "copy_kept_the_existing_file" not in findings
        return
    top = next(iter(findings.values()))
    assert (top.category, top.id) == ("cache_resume", "copy_kept_the_existing_file"), list(findings)
    assert top.title == ("run_eval.sh copies exports/tasks.jsonl onto tasks.jsonl with `cp -u`, which kept the earlier "
                         "file: tasks.jsonl is not exports/tasks.jsonl")
    assert "(`tar xzf exports/weekly_tasks.tar.gz -C exports/`) writes it with old times" in top.fix


@pytest.mark.parametrize("copy", ["cp -p", "cp"])
def test_a_rerun_decided_by_times_skips_data_copied_with_its_old_time(tmp_path, policy_endpoint, copy):
    """run_eval.sh collects again only when tasks.jsonl is newer than rollouts.jsonl, and copies the data team's file
    with `cp -p`: labels corrected in a file saved before the last run keep that old time, nothing is collected again,
    and the stale inputs' fix names the copy and the time test. A plain `cp` gives the copy a new time: collected."""
    run = tmp_path / "run"
    (run / "shared").mkdir(parents=True)
    rows = dataset_rows()[:10]
    shared = run / "shared" / "tasks.jsonl"
    shared.write_text("".join(row.replace('"expected_answer": "', '"expected_answer": "not ') if index < 3 else row
                              for index, row in enumerate(rows)))
    (run / "run_eval.sh").write_text(f"set -e\n{copy} shared/tasks.jsonl tasks.jsonl\n"
                                     "if [ ! -f rollouts.jsonl ] || [ tasks.jsonl -nt rollouts.jsonl ]; then\n"
                                     + COLLECT.format(data="tasks.jsonl", url="$1") + "fi\n")
    run_script(run, "run_eval_last.log", policy_endpoint.url)
    saved = shared.stat().st_mtime
    shared.write_text("".join(rows))  # the labels corrected, in a file the data team saved before the last run
    os.utime(shared, (saved, saved))
    run_script(run, "run_eval.log", policy_endpoint.url)

    findings = {finding.id: finding for finding in diagnose(run).causes}

    if copy == "cp":
        assert "stale_inputs" not in findings
        return
    top = next(iter(findings.values()))
    assert (top.category, top.id) == ("cache_resume", "stale_inputs"), list(findings)
    assert ("run_eval.sh:2 copies the data keeping its old modification time (`cp -p shared/tasks.jsonl tasks.jsonl`): "
            "run_eval.sh:3 decides by times (`if [ ! -f rollouts.jsonl ] || [ tasks.jsonl -nt rollouts.jsonl ]; "
            "then`)") in top.fix


def _line_of(script: Path, text: str) -> int:
    return next(number for number, line in enumerate(script.read_text().splitlines(), start=1) if text in line)
