"""A weekly eval that fetches its tasks with `wget URL` into a run folder still holding last week's file, run for real
against a loopback HTTP server and the simulated policy: wget saves this week's tasks as tasks.jsonl.1 and the run reads
the old tasks.jsonl. Fetched with `wget -O tasks.jsonl`, the run reads this week's data and is healthy."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port


@pytest.mark.skipif(shutil.which("wget") is None, reason="needs wget")
@pytest.mark.parametrize("fetch", ["wget -nv", "wget -nv -O tasks.jsonl"])
def test_a_download_saved_as_a_numbered_copy_leaves_the_run_on_last_weeks_file(tmp_path: Path, fetch: str) -> None:
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    served = tmp_path / "data_server"
    served.mkdir()
    port = free_loopback_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"], cwd=served,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        (served / "week48.jsonl").write_text("".join(rows[:6]))
        (served / "week49.jsonl").write_text("".join(rows[6:12]))
        fetch_tasks = f"{fetch} http://127.0.0.1:{port}/tasks.jsonl\n"
        this_week = (f"# this week's tasks from the data team's server\n{fetch_tasks}"
                     f"{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
                     "--output rollouts_materialized_inputs.jsonl\n"
                     f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
                     "--env string_match --concurrency 4\n")
        # the server publishes each week's tasks under one name: last week's run, then this week's
        run = run_scripts(tmp_path, [f"ln -sf week48.jsonl {served}/tasks.jsonl\n{fetch_tasks}",
                                     f"ln -sf week49.jsonl {served}/tasks.jsonl\n{this_week}"])
    finally:
        server.terminate()
        server.wait(10)

    report = diagnose(run)

    if "-O" in fetch:
        assert not (run / "tasks.jsonl.1").exists()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert (run / "tasks.jsonl.1").is_file()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "download_saved_beside_the_file_read"), [
        f.title for f in report.causes]
    assert top.title == ("wget saved the download as tasks.jsonl.1, beside the tasks.jsonl already there: the run read "
                         "the old tasks.jsonl (6 lines differ from the download)")
    assert top.fix.startswith("Download to the name the run reads: `wget -O tasks.jsonl <url>`")


PREP = """import csv, json
rows = [json.loads(line) for line in open('data.jsonl')]
labels = {int(row['row']): row['answer'] for row in csv.DictReader(open('labels.csv'))}
with open('tasks.jsonl', 'w') as out:
    for number, row in enumerate(rows):
        out.write(json.dumps({**row, 'expected_answer': labels[number]}) + '\\n')
"""


@pytest.mark.parametrize("take", ["cp DOWNLOADS/labels.csv labels.csv",
                                  'cp "$(ls -t DOWNLOADS/labels*.csv | head -1)" labels.csv'])
def test_a_browser_download_saved_as_a_copy_in_parentheses_leaves_the_run_on_last_weeks_labels(
        tmp_path: Path, take: str) -> None:
    """The labelling team's fixed export, downloaded by a browser into a folder holding last week's labels.csv, is
    saved as 'labels (1).csv' (the user's inputs); the run script lists the folder and copies labels.csv, the old
    labels, and the run scores the fixed questions against them. Copying the newest file there, healthy."""
    import csv
    import io
    import json

    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:6]
    answers = [json.loads(row)["expected_answer"] for row in rows]

    def sheet(labels: list[str]) -> str:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([("row", "answer"), *enumerate(labels)])
        return out.getvalue()

    downloads = tmp_path / "home" / "Downloads"
    downloads.mkdir(parents=True)
    (downloads / "labels.csv").write_text(sheet(["Sydney", "Pluto", *answers[2:]]))  # last week's, two labels wrong
    (downloads / "labels (1).csv").write_text(sheet(answers))  # this week's fix
    os.utime(downloads / "labels.csv", (1_700_000_000, 1_700_000_000))
    script = (f"ls -l {downloads}\n{take.replace('DOWNLOADS', str(downloads))}\npython3 prep.py\n"
              f"{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script], files={"prep.py": PREP, "data.jsonl": "".join(rows)})

    report = diagnose(run)

    if "ls -t" in take:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "browser_download_saved_beside_the_file_read"), [
        f.title for f in report.causes]
    assert top.title == ("The new download was saved as 'labels (1).csv', beside last week's labels.csv, and "
                         "run_eval.sh:3 takes labels.csv: the run used the old file")
