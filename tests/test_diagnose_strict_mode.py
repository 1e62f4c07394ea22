"""A run script in strict mode (`set -euo pipefail`), run for real by bash against the simulated policy, passing an
optional variable to the collection without a default: on a run where nobody set it bash stops there, and the
collection never runs. With a default (`${EXTRA_FLAGS:-}`) the run is whole and healthy. Likewise a `read` at the end
of a file without a final newline, and a counter incremented from 0 with `((step++))`, under `set -e`; and the other
way round, `set -e` inside a function called with `||`, which does not stop its failed step; and `local` outside a
function, which bash refuses and goes on without."""

from pathlib import Path

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment


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


@pytest.mark.parametrize("export_there", [False, True])
def test_set_e_inside_a_function_called_with_or_does_not_stop_a_failed_step(tmp_path: Path, export_there: bool) -> None:
    """prepare() sets -e to stop at a failing step and is called as `prepare || { ...; exit 1; }`: bash ignores -e
    in a tested command, so the failed `cp` of this week's export (not there yet) stops nothing, and the run goes on
    with last week's data.jsonl. With the export there, the copy works and the run is healthy."""
    this_week = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[10:20]
    script = ("prepare() {\n  set -e  # stop at the first failing step\n  cp exports_week49.jsonl data.jsonl\n"
              '  echo "prepared $(wc -l < data.jsonl) tasks"\n}\n'
              "prepare || { echo 'preparing the data failed, stopping'; exit 1; }\n" + MATERIALIZE
              + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
                "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script], files={"exports_week49.jsonl": "".join(this_week)} if export_there else None)

    report = diagnose(run)

    if export_there:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "cp: cannot stat" in (run / "logs" / "run_eval_0.log").read_text()
    assert (run / "rollouts.jsonl").is_file()  # the run went on, on last week's data
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "errexit_ignored_in_a_tested_function"), [f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:3 relies on `set -e` inside prepare(), but run_eval.sh:7 calls it as "
                                "`prepare || {")
    assert [line.where for line in top.evidence] == ["logs/run_eval_0.log:1", "run_eval.sh:3", "run_eval.sh:7"]
    assert "end each step with `|| return 1` (e.g. `cp ... || return 1`)" in top.fix


@pytest.mark.parametrize("declared", ["local DATA=week49.jsonl", "DATA=week49.jsonl"])
def test_local_outside_a_function_is_refused_and_the_default_dataset_runs(tmp_path: Path, declared: str) -> None:
    """The settings line `local DATA=...`, moved out of main() when the script was flattened: bash refuses `local`
    outside a function and goes on, so `${DATA:-...}` picks last week's file. A plain assignment sets it."""
    rows = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    script = (f"{declared}  # this week's set\nDATA=${{DATA:-week48.jsonl}}\necho \"== eval on $DATA\"\n"
              f"{CLI} materialize --input $DATA --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script], files={"week48.jsonl": "".join(rows[:5]), "week49.jsonl": "".join(rows[5:10])})

    report = diagnose(run)

    if not declared.startswith("local"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "== eval on week48.jsonl" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "assignment_refused_by_bash"), [f.title for f in report.causes]
    assert top.title == ("run_eval.sh:2 `local DATA=week49.jsonl` never set DATA: bash refused it (can only be used in "
                         "a function) and the script went on without it")
    assert [line.where for line in top.evidence] == ["logs/run_eval_0.log:1", "run_eval.sh:2", "run_eval.sh:3"]
    assert top.fix.startswith("In run_eval.sh:2, drop `local` (outside a function a plain `DATA=value` sets it)")
