"""A run's tasks.jsonl linked to the team's shared dataset, run for real by bash against the simulated policy: last
week the user fixed a typo in it with `sed -i`, which writes a new file over the link; this week the data team fixes a
label in the shared dataset, and the eval reads the frozen copy, scoring the model's right answer against the old
label. Edited with `sed -i --follow-symlinks`, the link stays, the fix reaches the run, and it is healthy."""

import json
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment


@pytest.mark.parametrize("edit", ["sed -i", "sed -i --follow-symlinks"])
def test_a_symlinked_dataset_edited_with_sed_in_place_becomes_a_frozen_copy(tmp_path: Path, edit: str) -> None:
    rows = [json.loads(line) for line in get_environment("string_match").dataset_path.read_text().splitlines()[:8]]
    right = rows[0]["expected_answer"]
    rows[0]["expected_answer"] = "mislabelled"  # the shared dataset's error, fixed this week
    shared = tmp_path / "shared" / "datasets" / "tasks_v3.jsonl"
    shared.parent.mkdir(parents=True)
    shared.write_text("".join(json.dumps(row) + "\n" for row in rows))
    scripts = [
        f"ln -s {shared} tasks.jsonl\nls -l tasks.jsonl\n",  # the setup, kept in its log
        f"{edit} 's/\\t/ /g' tasks.jsonl\nls -l tasks.jsonl\n",  # last week: tabs out of the prompts
        f"{edit} '1s/\"expected_answer\": \"mislabelled\"/\"expected_answer\": \"{right}\"/' {shared}\n",  # the team
        f"{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent --output "
        "rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL --env "
        "string_match --concurrency 4\n",
    ]
    run = run_scripts(tmp_path, scripts)

    report = diagnose(run)

    if "--follow-symlinks" in edit:
        assert (run / "tasks.jsonl").is_symlink()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "tasks.jsonl").is_symlink() and "mislabelled" in (run / "tasks.jsonl").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "linked_data_replaced_by_a_copy"), [f.title for f in report.causes]
    assert top.title == ("tasks.jsonl was a symlink to tasks_v3.jsonl (logs/run_eval_0.log) and is now a file of its "
                         "own: the run read a frozen copy, not the shared dataset (1 line differs from it now)")
    assert [line.where for line in top.evidence] == ["logs/run_eval_0.log:1", "tasks.jsonl", "run_eval.sh:2"]
    assert top.fix.startswith(f"Link it again: `ln -sf {shared} tasks.jsonl`")
