"""A run script in strict mode (`set -euo pipefail`), run for real by bash against the simulated policy, passing an
optional variable to the collection without a default: on a run where nobody set it bash stops there, and the
collection never runs. With a default (`${EXTRA_FLAGS:-}`) the run is whole and healthy."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose


@pytest.mark.parametrize("read_as", ["$EXTRA_FLAGS", "${EXTRA_FLAGS:-}"])
def test_an_optional_variable_read_unset_under_set_u_stops_the_script(tmp_path: Path, read_as: str) -> None:
    script = ("set -euo pipefail\n" + MATERIALIZE
              + f"# EXTRA_FLAGS: e.g. --resume after a preemption\n{CLI} collect --inputs "
                "rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL --env string_match "
                f"--concurrency 4 {read_as}\n"
              + f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if ":-" in read_as:
        assert (run / "rollouts.jsonl").is_file() and report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "unset_variable_stopped_a_strict_script")
    assert top.title == "run_eval.sh stopped at line 5: EXTRA_FLAGS is unset, and the script runs with `set -u` " \
                        "(set -euo pipefail)"
    assert [line.where for line in top.evidence] == ["logs/run_eval_0.log:2", "run_eval.sh:5", "run_eval.sh:2"]
    assert top.fix.startswith("In run_eval.sh, give EXTRA_FLAGS a default where it is read (`${EXTRA_FLAGS:-}`")
