"""A run script that sources a team settings file still exporting a debugging switch of Python's from last week's
leak hunt (PYTHONTRACEMALLOC=25), run for real with a CI time budget (`timeout`): the collection, many times slower,
is killed before its rollouts are in. With the switch at 0, the same script finishes within the budget."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

BUDGET_S = 20  # the CI step's budget for the collection: ample without the switch (a few seconds here)


@pytest.mark.parametrize("tracemalloc", ["25", "0"])
def test_a_python_debugging_switch_left_exported_slows_the_collection_past_its_budget(
        tmp_path: Path, tracemalloc: str) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "settings.env").write_text(
        f"# eval settings\nexport EVAL_SPLIT=weekly\nexport PYTHONTRACEMALLOC={tracemalloc}   # leak hunt\n")
    script = (MATERIALIZE + "source settings.env\n"
              f"timeout {BUDGET_S} {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
              "--model-url URL --env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if tracemalloc == "0":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("throughput_resources", "python_debugging_switch_left_on")
    assert top.title.endswith("ran with PYTHONTRACEMALLOC=25 (settings.env:3), a debugging switch that slows it "
                              "many times")
    assert top.fix.startswith("Remove `export PYTHONTRACEMALLOC=25   # leak hunt` from settings.env")
