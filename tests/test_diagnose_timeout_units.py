"""A CI step's time budget written in minutes and given to `timeout`, run for real by bash against the simulated
policy: timeout reads the bare number as seconds and ends the collection early. With the unit given (`3m`), the
collection finishes and the run is healthy."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("unit", ["", "m"])
def test_a_budget_in_minutes_given_to_timeout_ends_the_collection_after_as_many_seconds(tmp_path: Path,
                                                                                      unit: str) -> None:
    script = ("printf 'TIME_BUDGET=3   # minutes for the whole eval step\\n' > ci_settings.env\n"
              "source ./ci_settings.env\n" + MATERIALIZE
              + f"timeout ${{TIME_BUDGET}}{unit} {CLI} collect --inputs rollouts_materialized_inputs.jsonl --output "
                "rollouts.jsonl --model-url URL --env string_match --concurrency 2\n"
              + f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if unit:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "interrupted_collection")
    assert top.title == ("run_eval.sh:5 gives `timeout` 3 meaning minutes (ci_settings.env:1): timeout read 3 seconds "
                         "and ended the collection")
    assert top.fix.startswith("Give timeout the unit: `timeout ${TIME_BUDGET}m` in run_eval.sh:5")
