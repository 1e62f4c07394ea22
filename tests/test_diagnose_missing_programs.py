"""A script that runs the team's pinned tools by an absolute path on a share, run for real by bash: where the share is
not mounted (/mnt/eval-tools-<id> does not exist here), bash reports each command's program missing and goes on, the
script exits 0 and nothing is collected (infra, the share named). Run by a path that is there, the run is healthy."""

import sys
from pathlib import Path

import pytest
from script_support import run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("mounted", [False, True])
def test_a_program_run_from_a_share_not_mounted_here_runs_nothing(tmp_path: Path, mounted: bool) -> None:
    tools = Path(sys.executable).parent if mounted else Path(f"/mnt/eval-tools-{tmp_path.name[-16:]}/bin")
    assert tools.exists() is mounted
    run = run_scripts(tmp_path, [
        f"# the team's pinned eval tools, automounted on every eval node\nEVAL_TOOLS={tools}\n"
        "$EVAL_TOOLS/gym-pipeline materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent "
        "--output rollouts_materialized_inputs.jsonl\n"
        "$EVAL_TOOLS/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
        "--model-url URL --env string_match --concurrency 4\necho 'eval finished'\n"])

    report = diagnose(run)

    if mounted:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "program_missing_where_the_script_ran"), [f.title for f in report.causes]
    assert top.title == (f"run_eval.sh:4 runs {tools}/gym-pipeline, and {Path(*tools.parts[:3])} is not on this node "
                         "(a share not mounted here): nothing ran")
    assert f"Mount {Path(*tools.parts[:3])} on that node" in top.fix
