"""A run reading its tasks through `current`, a link to this week's dataset folder, run for real by bash against the
simulated policy: last week `ln -s datasets/v1 current`; this week the data team's v2 fixes a label and the script
moves the link with `ln -sf datasets/v2 current`, which, `current` being a link to a folder, makes datasets/v1/v2 and
leaves `current` on v1: the model's right answer is scored against the old label. With `ln -sfn`, the link moves and
the run is healthy."""

import json
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment


@pytest.mark.parametrize("ln", ["ln -sf", "ln -sfn"])
def test_a_folder_link_moved_with_ln_sf_stays_on_last_weeks_dataset(tmp_path: Path, ln: str) -> None:
    rows = [json.loads(line) for line in get_environment("string_match").dataset_path.read_text().splitlines()[:8]]
    fixed = "".join(json.dumps(row) + "\n" for row in rows)
    rows[0]["expected_answer"] = "mislabelled"
    old = "".join(json.dumps(row) + "\n" for row in rows)
    scripts = [
        "mkdir -p datasets/v1 && cp v1.jsonl datasets/v1/tasks.jsonl && ln -s datasets/v1 current\n",  # last week
        "mkdir -p datasets/v2 && cp v2.jsonl datasets/v2/tasks.jsonl\n"
        f"{ln} datasets/v2 current\nls -l current current/\n"
        f"{CLI} materialize --input current/tasks.jsonl --num-repeats 2 --agent string_match_simple_agent --output "
        "rollouts_materialized_inputs.jsonl\n"
        f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL --env "
        "string_match --concurrency 4\n",
    ]
    run = run_scripts(tmp_path, scripts, files={"v1.jsonl": old, "v2.jsonl": fixed})

    report = diagnose(run)

    if ln == "ln -sfn":
        assert (run / "current").readlink() == Path("datasets/v2")
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert (run / "current").readlink() == Path("datasets/v1") and (run / "datasets/v1/v2").is_symlink()
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "folder_link_followed_instead_of_replaced"), [
        f.title for f in report.causes]
    assert top.title == ("run_eval.sh:3 `ln -sf datasets/v2 current` did not move current: it already was a link to "
                         "the folder datasets/v1, so ln made the link datasets/v1/v2 inside it, and the run read "
                         "datasets/v1 (tasks.jsonl: 1 line differs from datasets/v2's)")
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "current", "current/v2"]
    assert top.fix.startswith("Use `ln -sfn datasets/v2 current`")
