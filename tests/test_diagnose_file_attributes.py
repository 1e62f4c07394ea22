"""A results folder an archive job marked append-only (`chattr +a`), collected into for real: the collector cannot
rename its finished file into place (EPERM, whatever the modes say), and the diagnosis names the attribute to lift.
Without the attribute, the same collection is healthy."""

import subprocess
from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("append_only", [True, False])
def test_a_results_folder_marked_append_only_refuses_the_collections_rename(tmp_path: Path, append_only: bool) -> None:
    results = tmp_path / "run" / "results"
    results.mkdir(parents=True)
    if append_only and subprocess.run(["chattr", "+a", str(results)], capture_output=True).returncode != 0:
        pytest.skip("this filesystem does not take file attributes (chattr)")
    script = MATERIALIZE.replace("--output ", "--output results/") + (
        f"{CLI} collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl "
        "--model-url URL --env string_match --concurrency 4\n")
    try:
        run = run_scripts(tmp_path, [script])
    finally:
        subprocess.run(["chattr", "-a", str(results)], capture_output=True)

    report = diagnose(run)

    if not append_only:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "Operation not permitted" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert top.category == "infra"
    assert "EPERM" in top.cause and "`a`, append-only" in top.fix and "chattr -a" in top.fix
