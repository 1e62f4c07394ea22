"""A run script taking its dataset folder's absolute path with `$(cd evals && pwd)`, run for real by bash with
CDPATH exported (a user's ~/.bashrc) and another project's `evals` folder in it: cd goes there and prints it, the
path holds two lines, and materialize refuses them. Without CDPATH the same script runs whole."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("cdpath_exported", [True, False])
def test_a_cd_resolved_through_an_exported_cdpath_takes_another_projects_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cdpath_exported: bool) -> None:
    (tmp_path / "projects" / "evals").mkdir(parents=True)
    if cdpath_exported:
        monkeypatch.setenv("CDPATH", str(tmp_path / "projects"))
    script = ("mkdir -p evals && cp data.jsonl evals/tasks.jsonl\n"
              "DATA=$(cd evals && pwd)/tasks.jsonl\n"
              'echo "== weekly eval of $DATA"\n'
              f"{CLI} materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if not cdpath_exported:
        assert (run / "rollouts.jsonl").is_file() and report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "cd_resolved_through_cdpath")
    assert top.evidence[0].where == "run_eval.sh:3" and top.evidence[1].where == "logs/run_eval_0.log:1"
    assert str(tmp_path / "projects" / "evals") in top.title
    assert "`cd ./evals`" in top.fix and "unset CDPATH" in top.fix
