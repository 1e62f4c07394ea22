"""A run script in strict mode (`set -euo pipefail`), run for real by bash against the simulated policy, passing an
optional variable to the collection without a default: on a run where nobody set it bash stops there, and the
collection never runs. With a default (`${EXTRA_FLAGS:-}`) the run is whole and healthy. Likewise a `read` at the end
of a file without a final newline, and a counter incremented from 0 with `((step++))`, under `set -e`."""

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


@pytest.mark.parametrize("final_newline", [False, True])
def test_a_read_at_the_end_of_a_file_without_a_newline_stops_a_set_e_script(tmp_path: Path, final_newline: bool) -> None:
    """The serve step writes model_url.txt with printf and no newline; `read` returns 1 at its end, and `set -e` ends
    the script silently before anything ran. With the newline, the run goes on and is healthy."""
    newline = "\\n" if final_newline else ""
    script = (f"printf 'URL{newline}' > model_url.txt\nset -euo pipefail\nread -r ENDPOINT < model_url.txt\n"
              'echo "== weekly eval against $ENDPOINT"\n' + MATERIALIZE
              + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "
                "$ENDPOINT --env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if final_newline:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts_materialized_inputs.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "read_at_the_end_of_a_file_stopped_a_strict_script")
    assert top.title == ("run_eval.sh:4 reads model_url.txt, which has no final newline: `read` returned 1 at its end "
                         "and `set -e` (set -euo pipefail) stopped the script there")


@pytest.mark.parametrize("increment", ["((step++))", "step=$((step + 1))"])
def test_a_counter_incremented_from_zero_under_set_e_stops_the_script(tmp_path: Path, increment: str) -> None:
    """The run script numbers its steps with `((step++))` from step=0: the arithmetic command's value is 0, it returns
    1, and `set -e` ends the script before anything ran. Counted with `step=$((step + 1))`, the run is healthy."""
    script = (f"set -e\nstep=0\n{increment}\n" + 'echo "== step $step of 2: materialize"\n' + MATERIALIZE
              + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
                "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if "$((" in increment:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts_materialized_inputs.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "arithmetic_zero_stopped_a_strict_script")
    assert top.title == ("run_eval.sh:4 `((step++))` counts from step=0: its value is 0, so it returned 1 and `set -e` "
                         "stopped the script there")
    assert "`step=$((step + 1))`" in top.fix
