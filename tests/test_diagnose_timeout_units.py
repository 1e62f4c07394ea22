"""A CI step's time budget written in minutes and given to `timeout`, run for real by bash against the simulated
policy: timeout reads the bare number as seconds and ends the collection early. With the unit given (`3m`), the
collection finishes and the run is healthy. The same with the budget a defaulted variable of the script
(`TIME_BUDGET=${TIME_BUDGET:-3}`)."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("unit", ["", "m"])
@pytest.mark.parametrize("setting", ["printf 'TIME_BUDGET=3   # minutes for the whole eval step\\n' > ci_settings.env\n"
                                     "source ./ci_settings.env\n",
                                     "TIME_BUDGET=${TIME_BUDGET:-3}   # minutes, from the pipeline's variables\n"],
                         ids=["env_file", "defaulted_variable"])
def test_a_budget_in_minutes_given_to_timeout_ends_the_collection_after_as_many_seconds(tmp_path: Path, setting: str,
                                                                                      unit: str) -> None:
    script = (setting + MATERIALIZE
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
    at, where = ("run_eval.sh:5", "ci_settings.env:1") if "printf" in setting else ("run_eval.sh:4", "run_eval.sh:2")
    assert top.title == (f"{at} gives `timeout` 3 meaning minutes ({where}): timeout read 3 seconds and ended the "
                         "collection")
    assert top.fix.startswith(f"Give timeout the unit: `timeout ${{TIME_BUDGET}}m` in {at} (here `timeout 3m`)")
