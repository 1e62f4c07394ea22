"""A run script that still evaluates a part of the data, run for real by bash against the simulated policy: a `jq`
filter or a `--limit` from a quick try, left in the weekly eval. Said to be temporary (a comment, the whole-set line
commented out, a script that says it runs the full set), it is the cause; a filter the script gives no reason to
doubt is a note. A header meant to be dropped with `tail -n +2`, written `tail -n 2`, keeps the last two rows. Globbing
turned off by a template's `set -f` leaves `cat part_*.jsonl` without its parts.
"""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

RULE = "data_subset_left_in_the_script"
COLLECT = (f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
           "--env string_match --concurrency 4\n")


def _filtered(comment: str) -> str:
    return ("# weekly eval\n# cp data.jsonl tasks.jsonl\n" if comment else "# eval of the short answers\n") \
        + f"jq -c 'select((.expected_answer | length) <= 4)' data.jsonl > tasks.jsonl{comment}\n" \
        + f"{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent " \
          "--output rollouts_materialized_inputs.jsonl\n" + COLLECT


@pytest.mark.parametrize("comment", ["   # quick try on the short answers first", ""])
def test_a_jq_filter_left_from_a_quick_try_is_the_cause(tmp_path: Path, comment: str) -> None:
    run = run_scripts(tmp_path, [_filtered(comment)])
    kept = len((run / "tasks.jsonl").read_text().splitlines())
    assert 0 < kept < 10

    report = diagnose(run)

    finding = next(f for f in report.findings if f.id == RULE)
    assert finding.title.startswith(f"run_eval.sh:{4 if comment else 3} evaluates the rows `jq -c 'select((."
                                    f"expected_answer | length) <= 4)' data.jsonl` keeps only: the run covers {kept} "
                                    "of the 10 rows of data.jsonl")
    if not comment:
        assert finding.role == "note" and report.category == "healthy", [f.title for f in report.causes]
        return
    assert (report.category, report.causes[0].id) == ("config", RULE)
    assert "its comment says so (`quick try on the short answers first`)" in finding.cause
    assert "run on data.jsonl itself instead of `jq -c" in finding.fix


def test_a_limit_kept_in_a_script_that_says_it_runs_the_full_set_is_the_cause(tmp_path: Path) -> None:
    script = ("# nightly eval of the full set\n"
              f"{CLI} materialize --input data.jsonl --num-repeats 2 --agent string_match_simple_agent --limit 3 "
              "--output rollouts_materialized_inputs.jsonl\n" + COLLECT)
    run = run_scripts(tmp_path, [script])

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", RULE)
    assert top.title == "run_eval.sh:3 evaluates the first 3 rows only: the run covers 3 tasks, and the script shows it " \
                        "is a leftover"
    assert "the script says it runs the whole set (`# nightly eval of the full set`)" in top.cause
    assert top.fix.startswith("In run_eval.sh:3, take the limit out (`--limit 3`)")


@pytest.mark.parametrize("tail", ["tail -n 2", "tail -n +2"])
def test_a_header_dropped_with_tail_n_2_keeps_the_last_two_rows(tmp_path: Path, tail: str) -> None:
    """The export's first line is a header record; the script means to drop it with `tail -n +2` and writes `tail -n
    2`, which keeps the last two rows: the run covers 2 tasks. With `tail -n +2`, the whole set, healthy."""
    script = ("# weekly eval\n# the export's first line is its header record, not a task: drop it\n"
              "(echo '{\"export\": \"annotation tool v3\"}'; cat data.jsonl) > export.jsonl\n"
              f"{tail} export.jsonl > tasks.jsonl\n"
              f"{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n" + COLLECT)
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if tail == "tail -n +2":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", RULE), [f.title for f in report.causes]
    assert top.title == ("run_eval.sh:5 evaluates the rows `tail -n 2 export.jsonl` keeps only: the run covers 2 of "
                         "the 11 rows of export.jsonl, and the script shows it is a leftover")
    assert "which is `tail -n +2` (from line 2 on)" in top.cause
    assert top.fix.startswith("In run_eval.sh:5, write `tail -n +2` (everything from line 2: the header dropped)")


@pytest.mark.parametrize("template", ["set -f  # from the team's template: no globbing\n", ""])
def test_globbing_turned_off_by_a_template_leaves_the_data_parts_unjoined(tmp_path: Path, template: str) -> None:
    """The team's script template turns globbing off (`set -f`); this week's tasks come in parts, joined with `cat
    part_*.jsonl`, which then names a file that does not exist: the run has no data. Without `set -f`, healthy."""
    bundled = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    script = (f"{template}cat part_*.jsonl > tasks.jsonl\n"
              f"{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n" + COLLECT)
    run = run_scripts(tmp_path, [script], files={"part_a.jsonl": "".join(bundled[:4]),
                                                 "part_b.jsonl": "".join(bundled[4:8])})

    report = diagnose(run)

    if not template:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "part_*.jsonl': No such file or directory" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "globbing_turned_off"), [f.title for f in report.causes]
    assert top.title == ("run_eval.sh:2 turns globbing off (`set -f`), so run_eval.sh:3 passed `part_*.jsonl` as a file "
                         "name, which does not exist")
    assert top.fix.startswith("In run_eval.sh, turn globbing back on before line 3 (`set +f`)")


@pytest.mark.parametrize("flag_test", ['[ "$1" = "--smoke" ] && SMOKE=1; shift',
                                       'if [ "$1" = "--smoke" ]; then SMOKE=1; shift; fi'])
def test_a_shift_outside_the_flag_test_drops_the_dataset_given(tmp_path: Path, flag_test: str) -> None:
    """eval.sh [--smoke] [DATASET] shifts whether or not --smoke was given: called with this week's tasks_v2.jsonl, it
    drops it and materializes the default tasks.jsonl, last week's labels. Shifting only with the flag, healthy."""
    bundled = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)
    old = bundled[0].replace('"expected_answer": "', '"expected_answer": "old ')
    eval_sh = (f"#!/bin/bash\n# eval.sh [--smoke] [DATASET]\n{flag_test}\nDATA=${{1:-tasks.jsonl}}\n"
               'echo "== weekly eval of $DATA"\n'
               f"{CLI} materialize --input $DATA --num-repeats 2 --agent string_match_simple_agent "
               "--output rollouts_materialized_inputs.jsonl\n")
    run = run_scripts(tmp_path, ["bash eval.sh tasks_v2.jsonl\n" + COLLECT],
                      files={"eval.sh": eval_sh, "tasks.jsonl": old + "".join(bundled[1:8]),
                             "tasks_v2.jsonl": "".join(bundled[:8])})

    report = diagnose(run)

    if flag_test.startswith("if"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "== weekly eval of tasks.jsonl" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "shift_outside_the_flag_test"), [f.title for f in report.causes]
    assert top.title == ("eval.sh:3 shifts its arguments whether or not `--smoke` was given: the argument after it was "
                         "dropped, and DATA fell back to its default tasks.jsonl (tasks_v2.jsonl lies beside it)")
    assert top.fix.startswith('In eval.sh:3, shift only with the flag: `if [ "$1" = "--smoke" ]; then SMOKE=1; shift; '
                              'fi`')
