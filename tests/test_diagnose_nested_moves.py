"""A weekly script that puts this week's export in place with `mv export_W49 data`, run for real while last week's
data/ is still there: mv moves the export into data/ (data/export_W49/), and the run reads last week's labels, two
of which this week's export corrected, so right answers score 0 with every command exiting 0 (cache/resume, the mv
named). Replacing the folder (`rm -rf data && mv -T ...`), the run reads this week's labels: healthy."""

import json
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment


@pytest.mark.parametrize("move", ["mv export_W49 data", "rm -rf data && mv -T export_W49 data"],
                         ids=["into", "replace"])
def test_an_export_moved_onto_last_weeks_data_folder_lands_inside_it(tmp_path: Path, move: str) -> None:
    rows = [json.loads(line) for line in get_environment("string_match").dataset_path.read_text().splitlines()[:8]]
    stale = [dict(row, expected_answer="(to review)") if index in (2, 5) else row for index, row in enumerate(rows)]
    run = run_scripts(tmp_path, [
        f"# this week's export replaces the data folder\n{move}\n"
        f"{CLI} materialize --input data/data.jsonl --num-repeats 3 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
        "--env string_match --concurrency 4\n"],
        files={"data/data.jsonl": "".join(json.dumps(row) + "\n" for row in stale),
               "export_W49/data.jsonl": "".join(json.dumps(row) + "\n" for row in rows)})

    report = diagnose(run)

    if "-T" in move:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert (run / "data" / "export_W49" / "data.jsonl").is_file()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "folder_moved_into_the_one_it_meant_to_replace"), [
        f.title for f in report.causes]
    assert top.title == ("run_eval.sh:3 `mv export_W49 data` moved export_W49 into the existing data/ instead of "
                         "replacing it: the run read the old data/data.jsonl")
    assert "`rm -rf data && mv -T export_W49 data`" in top.fix
