"""Tests in the user's scripts that are always true (diagnose/rules/shell_tests.py): each script is run for real by
bash, its output kept as the run's log, beside a finished run of Gym's; the same test written right is no finding."""

from __future__ import annotations

import sys

import pytest
from test_diagnose_shell_pitfalls import run_with_script

from gym_pipeline.diagnose import diagnose

RULE = "always_true_tests"


def test_a_comparison_written_with_a_redirect_inside_single_brackets(tmp_path):
    run = run_with_script(tmp_path, 'N=12\nif [ $N > 100 ]; then echo "sampling 10 of $N"; fi\n')

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", RULE)
    assert top.title == "run_eval.sh:3 tests `[ $N > 100 ]`: inside [ ] `>` is a redirection, so the test is always true"
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "100"]  # the file the redirect made
    assert '[ "$N" -gt 100 ]' in top.fix


@pytest.mark.parametrize("test", ['[ $SPLIT="dev" ]', '[ "$SPLIT" = "dev" ]'])
def test_a_comparison_without_spaces_is_one_word_and_always_true(tmp_path, test):
    run = run_with_script(tmp_path, f"SPLIT=test\nif {test}; then DATA=dev.jsonl; else DATA=test.jsonl; fi\n"
                                    'echo "evaluating $DATA"\n')
    said = (run / "run_eval.log").read_text()

    report = diagnose(run)

    if " = " in test:
        assert said == "evaluating test.jsonl\n"
        assert all(f.id != RULE for f in report.findings)
        return
    assert said == "evaluating dev.jsonl\n"  # the test split was asked for
    top = report.causes[0]
    assert (top.category, top.id) == ("config", RULE)
    assert top.title.startswith('run_eval.sh:3 tests `[ $SPLIT="dev" ]`: without spaces around `=` it is one word')
    assert 'put spaces around the operator: `[ "$SPLIT" = "dev" ]`' in top.fix


@pytest.mark.parametrize("test", ['[ -n "$SMOKE_TEST" ]', '[ "$SMOKE_TEST" = 1 ]'])
def test_a_switch_turned_off_with_0_passes_a_not_empty_test(tmp_path, test):
    settings = "# eval settings\n# smoke test: 1 = the first 2 tasks, 0 = the whole dataset\nSMOKE_TEST=0\n"
    run = run_with_script(tmp_path, f"source ./settings.env\nif {test}; then echo 'smoke test: first 2 tasks only'; "
                                    "fi\n", {"settings.env": settings})
    said = (run / "run_eval.log").read_text()

    report = diagnose(run)

    if "= 1" in test:
        assert said == ""
        assert all(f.id != RULE for f in report.findings)
        return
    assert said == "smoke test: first 2 tasks only\n"
    top = report.causes[0]
    assert (top.category, top.id) == ("config", RULE)
    assert top.title == ('run_eval.sh:3 tests `[ -n "$SMOKE_TEST" ]`, which is true for SMOKE_TEST=0 (settings.env:3): '
                         "the branch meant to be off ran")
    assert top.fix.startswith('In run_eval.sh:3, replace `[ -n "$SMOKE_TEST" ]` with a test of the value: '
                              '`[ "$SMOKE_TEST" = 1 ]`')


@pytest.mark.parametrize("branches", ["smoke|*) DATA=smoke.jsonl ;;\n  full) DATA=tasks.jsonl ;;",
                                      "full) DATA=tasks.jsonl ;;\n  smoke|*) DATA=smoke.jsonl ;;"])
def test_a_catch_all_case_pattern_before_other_branches_takes_every_value(tmp_path, branches):
    run = run_with_script(tmp_path, f'MODE=full\ncase "$MODE" in\n  {branches}\nesac\necho "evaluating $DATA"\n')
    said = (run / "run_eval.log").read_text()

    report = diagnose(run)

    if branches.startswith("full"):
        assert said == "evaluating tasks.jsonl\n"
        assert all(f.id != RULE for f in report.findings)
        return
    assert said == "evaluating smoke.jsonl\n"  # full was asked for
    top = report.causes[0]
    assert (top.category, top.id) == ("config", RULE)
    assert top.title == ("run_eval.sh:4: the case pattern `smoke|*` matches everything, and bash takes the first "
                         "match: `full)` after it never runs")
    assert top.fix.startswith("In run_eval.sh, make the catch-all the last branch of the case: take `*` out of "
                              "`smoke|*)` and put `*)` after `full)`")


@pytest.mark.parametrize("debug_line", [True, False])
def test_a_status_read_after_a_debugging_echo_is_the_echos(tmp_path, debug_line):
    """The data check fails; a debugging echo between it and the `if [ $? -ne 0 ]` makes `$?` the echo's 0, so the
    fallback to the backup data never runs. Read right after the check, the fallback runs: no finding."""
    debug = 'echo "checked $DATA"\n' if debug_line else ""
    run = run_with_script(tmp_path, "DATA=tasks.jsonl\ngrep -q expected_answer \"$DATA\" 2>/dev/null\n" + debug
                                    + 'if [ $? -ne 0 ]; then DATA=backup.jsonl; fi\necho "evaluating $DATA"\n')
    said = (run / "run_eval.log").read_text()

    report = diagnose(run)

    if not debug_line:
        assert said == "evaluating backup.jsonl\n"
        assert all(f.id != RULE for f in report.findings)
        return
    assert said.endswith("evaluating tasks.jsonl\n")  # the check failed, and the fallback did not run
    top = report.causes[0]
    assert (top.category, top.id) == ("config", RULE)
    assert top.title == ("run_eval.sh:5 tests `$?` right after the `echo` on line 4: it is that print's status, always "
                         "0, not grep's")
    assert top.fix.startswith("In run_eval.sh, test grep itself (`if grep -q expected_answer \"$DATA\" 2>/dev/null; "
                              "then`), or keep its status right after it (`status=$?`)")


@pytest.mark.parametrize("edit", ['sed \'s/ a file/ the file/g\' "$f" > "$f"', "sed -i 's/ a file/ the file/g' \"$f\""])
def test_a_file_rewritten_by_a_redirect_onto_itself_is_left_empty(tmp_path, edit):
    """A house-style pass over every task's instruction: `sed ... "$f" > "$f"` empties each file before sed reads it.
    With `sed -i` the files are edited in place and keep their text."""
    tasks = {f"tasks/{name}/instruction.md": f"Write a file named {name}.txt.\n" for name in ("alpha", "beta")}
    run = run_with_script(tmp_path, f"cd tasks\nfor f in */instruction.md; do\n  {edit}\ndone\n", tasks)
    sizes = [(run / name).stat().st_size for name in tasks]

    report = diagnose(run)

    if "-i" in edit:
        assert all(sizes) and all(f.id != "file_emptied_by_a_redirect_onto_its_input" for f in report.findings)
        return
    assert sizes == [0, 0]
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "file_emptied_by_a_redirect_onto_its_input")
    assert top.title == ('run_eval.sh:4 redirects sed\'s output onto the file it reads ("$f" > "$f"): 2 instruction.md '
                         "files are empty")
    assert top.fix.startswith('In run_eval.sh:4, write to a new file and move it over the old one (`sed ... "$f" > '
                              '"$f".tmp && mv "$f".tmp "$f"`, or `sed -i`)')


@pytest.mark.parametrize("ifs", ["IFS=,    # the lists below are comma separated too\n", ""])
def test_ifs_set_for_the_whole_script_keeps_an_option_string_one_word(tmp_path, ifs):
    """`IFS=,` on its own line: the options in $OPTS reach the command as one argument, which it refuses. Set only for
    the `read` that needs it, the options split as meant."""
    command = f"{sys.executable} -m gym_pipeline.cli materialize --input data.jsonl $OPTS --output inputs.jsonl"
    run = run_with_script(tmp_path, "IFS=, read -r NAME FILE < splits.csv\n" + ifs
                          + 'OPTS="--num-repeats 2 --agent string_match_simple_agent"\n' + command + " || true\n",
                          {"splits.csv": "dev,data.jsonl\n", "data.jsonl": (
                              '{"responses_create_params": {"input": [{"role": "user", "content": "2+2?"}]}, '
                              '"expected_answer": "4"}\n')})
    said = (run / "run_eval.log").read_text()

    report = diagnose(run)

    if not ifs:
        assert "wrote 2 rows" in said
        assert all(f.id != "field_separator_set_for_the_whole_script" for f in report.findings)
        return
    assert "error" in said
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "field_separator_set_for_the_whole_script")
    assert top.title == ("run_eval.sh:3 sets IFS=, for the rest of the script: $OPTS (`--num-repeats 2 --agent "
                         "string_match_simple_agent`) reached the command at line 5 as one word")
    assert "set IFS only for the command that needs it (`IFS=, read -r ...`)" in top.fix


@pytest.mark.parametrize("quoted", [False, True])
def test_a_path_with_a_space_passed_unquoted_is_split_in_two(tmp_path, quoted):
    data = '"$DATA"' if quoted else "$DATA"
    run = run_with_script(tmp_path, 'DATA="weekly data/tasks.jsonl"\n'
                          f"{sys.executable} -m gym_pipeline.cli materialize --input {data} --num-repeats 2 --agent "
                          "string_match_simple_agent --output inputs.jsonl || true\n",
                          {"weekly data/tasks.jsonl": ('{"responses_create_params": {"input": [{"role": "user", '
                                                       '"content": "2+2?"}]}, "expected_answer": "4"}\n')})
    said = (run / "run_eval.log").read_text()

    report = diagnose(run)

    if quoted:
        assert "wrote 2 rows" in said
        assert all(f.id != "path_with_a_space_split_in_two" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "path_with_a_space_split_in_two")
    assert top.title == ("run_eval.sh:3 passes $DATA unquoted: its path `weekly data/tasks.jsonl` has a space, so the "
                         "command got `weekly` and a stray `data/tasks.jsonl`")
    assert top.fix.startswith('In run_eval.sh:3, quote the variable: `"$DATA"`')


@pytest.mark.parametrize("site", [False, True])
def test_a_data_script_run_by_a_python_without_its_package_is_named_with_the_interpreter(tmp_path, site):
    """prepare_data.py imports pandas; run with `-S` the interpreter has no site-packages (as a node's bare python3
    has none of the workstation's packages), so it stops at the import and writes no data. Run with them, it does."""
    python = sys.executable if site else f"{sys.executable} -S"
    run = run_with_script(tmp_path, f"{python} prepare_data.py || true\n{sys.executable} -m gym_pipeline.cli materialize "
                          "--input data.jsonl --num-repeats 1 --agent string_match_simple_agent --output inputs.jsonl || true\n",
                          {"prepare_data.py": "import pandas as pd\n\npd.DataFrame({'a': [1]}).to_json('data.jsonl', "
                                              "orient='records', lines=True)\n"})

    report = diagnose(run)

    if site:
        assert (run / "data.jsonl").is_file()
        assert all(f.id != "script_run_by_a_python_without_its_package" for f in report.findings)
        return
    assert "No module named 'pandas'" in (run / "run_eval.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("infra", "script_run_by_a_python_without_its_package")
    assert top.title == (f"prepare_data.py imports pandas, which the Python that runs it ({sys.executable}, "
                         "run_eval.sh:2) does not have")
    assert top.fix.startswith("Run prepare_data.py with the Python that has pandas")


@pytest.mark.parametrize("delimiter", ["'EOF'", "EOF"])
def test_settings_written_by_a_quoted_heredoc_keep_their_variables_as_text(tmp_path, delimiter):
    """`cat > settings.env <<'EOF'` keeps `$URL` as text; the shell that sources it later (the job's) has no URL and
    gets no address. Unquoted, the shell writes the address."""
    run = run_with_script(tmp_path, f"URL=http://127.0.0.1:8000/v1\ncat > settings.env <<{delimiter}\nMODEL_URL=$URL\n"
                                    "EOF\nbash -c 'source ./settings.env; echo \"collecting from $MODEL_URL\"'\n")
    said = (run / "run_eval.log").read_text()

    report = diagnose(run)

    if delimiter == "EOF":
        assert said == "collecting from http://127.0.0.1:8000/v1\n"
        assert all(f.id != "settings_written_by_a_quoted_heredoc" for f in report.findings)
        return
    assert said == "collecting from \n"  # the job's shell, which sources it, has no URL
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "settings_written_by_a_quoted_heredoc")
    assert top.title == ("run_eval.sh:3 writes settings.env with a quoted here-document (<<'EOF'): `MODEL_URL=$URL` "
                         "was written as text, $URL never expanded")
    assert top.fix.startswith("In run_eval.sh:3, leave the delimiter unquoted (`<<EOF`)")


@pytest.mark.parametrize("once", [False, True, "in messages"])
def test_a_dated_folder_name_computed_again_on_a_later_line_points_at_another_folder(tmp_path, once):
    """The run writes into results/$(date +%H%M%S) and reads back from a name computed again after a second has
    passed: nothing is there. Computed once, the second line finds the file. A time printed by two messages, and an
    `rm` of a folder already gone, are no dated folder."""
    if once == "in messages":
        script = ('echo "started ($(date +%T))"\nrm -r /tmp/gone-$$ 2>&1 || true\nsleep 1.2\n'
                  'echo "finished ($(date +%T))"\n')
    elif once:
        script = 'OUT=results/$(date +%H%M%S)\nmkdir -p $OUT\necho ok > $OUT/done.txt\nsleep 1.2\ncat $OUT/done.txt\n'
    else:
        script = ("mkdir -p results/$(date +%H%M%S)\necho ok > results/$(date +%H%M%S)/done.txt\nsleep 1.2\n"
                  "cat results/$(date +%H%M%S)/done.txt || true\n")
    run = run_with_script(tmp_path, script)

    report = diagnose(run)

    if once:
        assert all(f.id != "dated_path_computed_again" for f in report.findings)
        return
    assert "No such file or directory" in (run / "run_eval.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "dated_path_computed_again")
    assert top.fix.startswith("In run_eval.sh, compute the name once at the top (`OUT=results/$(date +%H%M%S)`)")


@pytest.mark.parametrize("test", ["[ -n $SMOKE ]", '[ -n "$SMOKE" ]'])
def test_an_unquoted_not_empty_test_of_an_unset_switch_is_true(tmp_path, test):
    run = run_with_script(tmp_path, f'# SMOKE=1 bash run_eval.sh for a quick check\nif {test}; then echo "smoke: first 2 '
                                    'tasks only"; else echo "all tasks"; fi\n')
    said = (run / "run_eval.log").read_text()

    report = diagnose(run)

    if '"' in test:
        assert said == "all tasks\n"
        assert all(f.id != RULE for f in report.findings)
        return
    assert said == "smoke: first 2 tasks only\n"  # SMOKE was never set
    top = report.causes[0]
    assert (top.category, top.id) == ("config", RULE)
    assert top.title == ("run_eval.sh:3 tests `[ -n $SMOKE ]` with SMOKE unquoted: when SMOKE is not set the test is "
                         "`[ -n ]`, which is true, so the branch meant for it ran")
    assert top.fix.startswith('In run_eval.sh:3, quote the variable: `[ -n "$SMOKE" ]`')
