"""Shell mistakes in the user's scripts that exit 0 and change what the run does (diagnose/rules/shell_pitfalls.py).

Each script is run for real by bash, with its output kept as the run's log, beside a finished run of Gym's."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.core.materialize import MaterializationSettings, materialize_file
from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment


def run_with_script(tmp_path: Path, script: str, files: dict[str, str] | None = None) -> Path:
    run = tmp_path / "run"
    shutil.copytree(FIXTURES / "clean_run", run)
    for name, text in (files or {}).items():
        (run / name).parent.mkdir(parents=True, exist_ok=True)
        (run / name).write_text(text)
    (run / "run_eval.sh").write_text("#!/bin/bash\n" + script)
    with (run / "run_eval.log").open("w") as log:
        subprocess.run(["bash", "run_eval.sh", "--repeats", "5"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                       check=True)
    return run


def test_settings_read_in_a_loop_fed_by_a_pipe_are_lost(tmp_path):
    run = run_with_script(tmp_path, "REPEATS=1\ngrep -v '^#' eval.conf | while read key value; do\n"
                                    '  declare "$key=$value"\ndone\necho "repeats $REPEATS"\n',
                          {"eval.conf": "# settings\nREPEATS 5\n"})
    assert "repeats 1" in (run / "run_eval.log").read_text()  # bash really lost it

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "run_eval.sh:4"]
    assert "< <(grep -v '^#' eval.conf)" in top.fix


def test_defaults_sourced_after_the_options_replace_them(tmp_path):
    run = run_with_script(tmp_path, 'while [ $# -gt 0 ]; do\n  case $1 in\n    --repeats) REPEATS=$2; shift 2;;\n'
                                    '    *) exit 2;;\n  esac\ndone\nsource defaults.env\necho "repeats $REPEATS"\n',
                          {"defaults.env": "REPEATS=1\n"})
    assert "repeats 1" in (run / "run_eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert top.title.startswith("run_eval.sh sources defaults.env after reading its options: defaults.env sets REPEATS")
    assert ': "${REPEATS:=1}"' in top.fix


@pytest.mark.parametrize("script", [
    'N=12\nif [[ $N > 100 ]]; then echo big; fi\nif (( N > 100 )); then echo big; fi\nif [ "$N" -gt 100 ]; then :; fi\n',
    "while read key value; do declare \"$key=$value\"; done < eval.conf\nREPEATS=5  # a comment = fine\n",
    'source defaults.env\nwhile [ $# -gt 0 ]; do\n  case $1 in\n    --repeats) REPEATS=$2; shift 2;;\n  esac\ndone\n',
    "#SBATCH --array=0-3\n# one task per shard\n#SBATCH --time=10\necho \"shard ${SLURM_ARRAY_TASK_ID:-0}\"\n",
])
def test_the_same_done_right_is_no_fault(tmp_path, script):
    run = run_with_script(tmp_path, script, {"eval.conf": "REPEATS 5\n", "defaults.env": ": \"${REPEATS:=1}\"\n"})
    assert diagnose(run).healthy


def test_a_setting_written_with_spaces_around_the_equals_sign_is_a_command_not_an_assignment(tmp_path):
    run = run_with_script(tmp_path, 'source settings.env\necho "repeats ${REPEATS:-1}"\n',
                          {"settings.env": "# eval settings\nREPEATS = 5\n"})
    assert "repeats 1" in (run / "run_eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert top.title.startswith("settings.env:2 writes `REPEATS = 5`: with spaces around `=` the shell runs a command")
    assert [line.where for line in top.evidence] == ["settings.env:2", "run_eval.log:1"]


def test_sbatch_directives_after_the_first_command_are_ignored(tmp_path):
    run = run_with_script(tmp_path, 'echo "shard ${SLURM_ARRAY_TASK_ID:-0}"\n', {
        "collect.sbatch": "#!/bin/bash\nsource job_env.sh  # site modules\n#SBATCH --array=0-3\n#SBATCH --time=10\n"
                          "echo shard\n"})

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert top.title == "collect.sbatch has 2 #SBATCH lines after its first command (line 2): Slurm ignores them"
    assert "--array=0-3, --time=10" in top.cause and "Move every `#SBATCH` line of collect.sbatch" in top.fix


def test_a_makefiles_spaced_assignments_are_make_syntax_not_a_shell_mistake(tmp_path):
    run = run_with_script(tmp_path, "echo ok\n", {"Makefile": "GP = gym-pipeline\nDATA = data/trivia.jsonl\n"})
    assert diagnose(run).healthy


def test_a_function_called_with_two_arguments_in_each_others_place(tmp_path):
    run = run_with_script(tmp_path, 'REPEATS=4\nCONCURRENCY=1\n# usage: eval_split INPUT REPEATS CONCURRENCY\n'
                                    'eval_split() {\n  local input=$1 repeats=$2 concurrency=$3\n'
                                    '  echo "eval of $input: $repeats repeat(s), concurrency $concurrency"\n}\n'
                                    'eval_split tasks.jsonl $CONCURRENCY $REPEATS\n')
    assert "1 repeat(s), concurrency 4" in (run / "run_eval.log").read_text()  # bash really swapped them

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert [line.where for line in top.evidence] == ["run_eval.sh:9", "run_eval.sh:6"]
    assert "call `eval_split tasks.jsonl $REPEATS $CONCURRENCY`" in top.fix


def test_a_function_called_in_its_own_order_is_no_finding(tmp_path):
    run = run_with_script(tmp_path, 'REPEATS=4\nCONCURRENCY=1\neval_split() {\n  local input=$1 repeats=$2 '
                                    'concurrency=$3\n  echo "$repeats repeat(s), concurrency $concurrency"\n}\n'
                                    'eval_split tasks.jsonl $REPEATS $CONCURRENCY\n')
    assert diagnose(run).healthy


def test_an_array_named_without_an_index_is_only_its_first_element(tmp_path):
    run = run_with_script(tmp_path, 'SPLITS=(dev test)\nfor split in $SPLITS; do\n  echo "== split $split"\ndone\n')
    assert "split test" not in (run / "run_eval.log").read_text()  # bash really skipped it

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "run_eval.sh:2"]
    assert 'write `"${SPLITS[@]}"`' in top.fix and "skipped (test)" in top.fix


def test_an_array_expanded_whole_is_no_finding(tmp_path):
    run = run_with_script(tmp_path, 'SPLITS=(dev test)\nfor split in "${SPLITS[@]}"; do\n  echo "== $split"\ndone\n'
                                    'echo "${#SPLITS[@]} splits, first ${SPLITS[0]}"\n')
    assert diagnose(run).healthy


PICK_SPLIT = ('#!/bin/bash\nSPLIT=$1\ncase "$SPLIT" in\n  test) DATA=splits/test.jsonl ;;\n'
              '  *)    DATA=splits/dev.jsonl ;;\nesac\necho "split $SPLIT: $DATA"\n')


def test_an_argument_a_case_matches_only_in_other_letters_takes_the_default_branch(tmp_path):
    run = run_with_script(tmp_path, "bash pick_split.sh Test\n", {"pick_split.sh": PICK_SPLIT})
    assert "split Test: splits/dev.jsonl" in (run / "run_eval.log").read_text()  # bash really took the default

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert [line.where for line in top.evidence] == ["run_eval.sh:2", "pick_split.sh:4", "pick_split.sh:5"]
    assert "In run_eval.sh, pass `test`, not `Test`" in top.fix


def test_an_argument_a_case_matches_is_no_finding(tmp_path):
    run = run_with_script(tmp_path, "bash pick_split.sh test\nbash pick_split.sh dev\n", {"pick_split.sh": PICK_SPLIT})
    assert diagnose(run).healthy


GETOPTS = ('REPEATS=1\nwhile getopts "{letters}" opt; do\n  case $opt in\n    r) REPEATS=$OPTARG ;;\n'
           '    c) CONCURRENCY=$OPTARG ;;\n  esac\ndone\nshift $((OPTIND - 1))\necho "data ${{1:-none}}, repeats $REPEATS"\n')


def test_a_getopts_option_without_its_colon_takes_no_value(tmp_path):
    run = run_with_script(tmp_path, "set -- -r 4 -c 2\n" + GETOPTS.format(letters="rc:"))
    assert "data 4, repeats " in (run / "run_eval.log").read_text()  # bash really took 4 for the data

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert [line.where for line in top.evidence] == ["run_eval.sh:4", "run_eval.sh:6"]
    assert 'write `getopts "r:c:"`' in top.fix


def test_getopts_with_a_colon_after_every_option_that_takes_a_value_is_no_finding(tmp_path):
    run = run_with_script(tmp_path, "set -- -r 4 -c 2\n" + GETOPTS.format(letters="r:c:"))
    assert diagnose(run).healthy


EVAL_CFG = "# weekly eval settings\n# num_repeats: 1   <- smoke test only\nnum_repeats: 4\n"


def test_a_setting_grepped_from_a_file_whose_first_match_is_a_comment(tmp_path):
    run = run_with_script(tmp_path, "REPEATS=$(grep num_repeats eval.cfg | head -1 | awk '{print $3}')\n"
                                    'echo "repeats $REPEATS"\n', {"eval.cfg": EVAL_CFG})
    assert "repeats 1" in (run / "run_eval.log").read_text()  # grep really took the comment

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "settings_read_with_text_tools")
    assert [line.where for line in top.evidence] == ["run_eval.sh:2", "eval.cfg:2", "eval.cfg:3"]
    assert "`grep '^num_repeats' eval.cfg`" in top.fix


def test_a_setting_grepped_at_the_start_of_its_line_is_no_finding(tmp_path):
    run = run_with_script(tmp_path, "REPEATS=$(grep '^num_repeats' eval.cfg | head -1 | awk '{print $2}')\n"
                                    'echo "repeats $REPEATS"\n', {"eval.cfg": EVAL_CFG})
    assert "repeats 4" in (run / "run_eval.log").read_text()
    assert diagnose(run).healthy


SETTINGS_INI = "[eval]\nnum_repeats = 4\n# for a quick smoke test use: num_repeats = 1\n"
SETTING_FUNCTION = ("setting() { grep \"$1\" eval_settings.ini | tail -1 | cut -d= -f2 | tr -d ' '; }\n"
                    "REPEATS=$(setting num_repeats)\necho \"repeats $REPEATS\"\n")


@pytest.mark.parametrize("anchor", ["", "^"], ids=["unanchored", "anchored"])
def test_a_setting_a_function_greps_whose_last_match_is_a_comment(tmp_path, anchor):
    run = run_with_script(tmp_path, SETTING_FUNCTION.replace('"$1"', f'"{anchor}$1"'),
                          {"eval_settings.ini": SETTINGS_INI})

    if anchor:
        assert "repeats 4" in (run / "run_eval.log").read_text()
        assert diagnose(run).healthy
        return
    assert "repeats 1" in (run / "run_eval.log").read_text()  # grep really took the comment
    top = diagnose(run).causes[0]
    assert (top.category, top.id) == ("config", "settings_read_with_text_tools")
    assert top.title == ("run_eval.sh:2 reads num_repeats with `grep ... | tail -1`, and the last line of "
                         "eval_settings.ini with it is a comment")
    assert [line.where for line in top.evidence] == ["run_eval.sh:2", "eval_settings.ini:3", "eval_settings.ini:2"]

COLLECT_WITH = (f"{sys.executable} -m gym_pipeline.cli collect --inputs rollouts_materialized_inputs.jsonl "
                "--output new_rollouts.jsonl --env string_match OPTION\necho done\n")


@pytest.mark.parametrize(("loading", "option", "settings", "expected"), [
    ("source ./settings.env", "--concurrency ${CONCURRENCY-4}", "CONCURRENCY=\n",
     "and `${CONCURRENCY-4}` keeps an empty value"),
    ("export $(grep -v '^#' settings.env)", "--model-url $MODEL_URL --concurrency 4",
     'MODEL_URL="http://127.0.0.1:9/v1"  # this week\'s server\n',
     "which keeps the quotes as part of the value; load settings.env with `set -a; source settings.env; set +a`"),
    ("source ./settings.env", "--concurrency ${CONCURRENCY:-4} --model-url http://127.0.0.1:9/v1", "CONCURRENCY=\n",
     None),
    ("source ./settings.env\nCONC=${CONCURRENCY-4}", "--concurrency \"$CONC\"", "CONCURRENCY=\n",
     "from CONCURRENCY, which settings.env:1 sets empty (`CONCURRENCY=`): empty, and `${CONCURRENCY-4}` keeps an empty "
     "value"),
    ("source ./settings.env\nCONC=${CONCURRENCY:-4}", "--concurrency \"$CONC\" --model-url http://127.0.0.1:9/v1",
     "CONCURRENCY=\n", None),
], ids=["default_without_colon", "export_grep_keeps_quotes", "default_with_colon", "variable_defaulted_without_colon",
        "variable_defaulted_with_colon"])
def test_an_option_a_settings_file_gave_a_value_the_command_refused(tmp_path, loading, option, settings, expected):
    """A collection whose option takes its value from settings.env, which the script reads so that the value is empty
    or keeps its quotes: the command refuses it, nothing is collected, and the fix names both lines."""
    run = tmp_path / "run"
    run.mkdir()
    environment = get_environment("string_match")
    materialize_file(environment.dataset_path, run / "rollouts_materialized_inputs.jsonl",
                     MaterializationSettings(1, environment.agent_name))
    (run / "settings.env").write_text(settings)
    (run / "run_eval.sh").write_text(f"#!/bin/bash\n{loading}\n" + COLLECT_WITH.replace("OPTION", option))
    with (run / "run_eval.log").open("w") as log:
        subprocess.run(["bash", "run_eval.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT, timeout=120)
    log = (run / "run_eval.log").read_text()

    causes = diagnose(run).causes

    if expected is None:
        assert "error: argument" not in log
        assert all("which settings.env:1 sets" not in f.fix for f in causes)
        return
    assert "error: argument" in log
    top = causes[0]
    assert top.category == "config", top.title
    assert "which settings.env:1 sets" in top.fix and expected in top.fix

def test_a_redirect_noclobber_refused_leaves_the_previous_file_in_place(tmp_path):
    run = run_with_script(tmp_path, "source shell_settings.sh\necho this week > tasks.jsonl\necho went on\n",
                          {"shell_settings.sh": "set -o noclobber  # never overwrite by accident\n",
                           "tasks.jsonl": "last week's rows\n"})
    assert "cannot overwrite existing file" in (run / "run_eval.log").read_text()  # bash really refused it

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("cache_resume", "shell_pitfalls")
    assert [line.where for line in top.evidence] == ["run_eval.log:1", "run_eval.sh:3", "shell_settings.sh:1"]
    assert "Overwrite on purpose with `>|` (run_eval.sh line 3: `... >| tasks.jsonl`)" in top.fix


def test_a_count_taken_with_wc_l_and_the_file_name_gives_the_option_two_words(tmp_path):
    materialize = f"{sys.executable} -m gym_pipeline.cli materialize"
    run = run_with_script(tmp_path, "N=$(wc -l data.jsonl)\n"
                                    f"{materialize} --input data.jsonl --limit $N --num-repeats 1 --agent a "
                                    "--output subset.jsonl || true\n", {"data.jsonl": '{"expected_answer": "x"}\n'})
    assert "unrecognized arguments: data.jsonl" in (run / "run_eval.log").read_text()  # the name became an argument

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert [line.where for line in top.evidence] == ["run_eval.sh:2", "run_eval.sh:3"]
    assert "count with `wc -l < data.jsonl` (the count alone) for `--limit`" in top.fix


EVAL_CONF = "# settings of the weekly eval\nnum_repeats: 3\nconcurrency: 4   # the model server has 4 slots\n"
DATA = {"data.jsonl": get_environment("string_match").dataset_path.read_text()}


LIMITED_EVAL = ('DATA=data.jsonl\n'
                f'{CLI} materialize --input $DATA --num-repeats 2 --agent string_match_simple_agent '
                '--limit ${LIMIT:-$(wc -l < $DATA)} --output rollouts_materialized_inputs.jsonl\n'
                f'{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL '
                '--env string_match --concurrency 4\n'
                f'{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n')
FOUR_ROWS = get_environment("string_match").dataset_path.read_text().splitlines(keepends=True)[:4]


@pytest.mark.parametrize("last_newline", [False, True])
def test_a_limit_counted_by_wc_l_leaves_out_a_last_row_without_a_newline(tmp_path, last_newline):
    data = "".join(FOUR_ROWS) if last_newline else "".join(FOUR_ROWS).rstrip("\n")
    run = run_scripts(tmp_path, [LIMITED_EVAL], files={"data.jsonl": data})
    tasks = {row["_ng_task_index"] for row in map(json.loads, (run / "rollouts.jsonl").read_text().splitlines())}
    assert len(tasks) == (4 if last_newline else 3)  # wc -l really counted one row short

    report = diagnose(run)

    if last_newline:  # the whole file was evaluated: nothing to say about the count
        assert all("wc -l" not in finding.title for finding in report.findings), report.findings[0].title
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert "wc counts 3 of its 4 rows" in top.title
    assert [line.where for line in top.evidence] == ["run_eval.sh:3"]
    assert "`grep -c '' $DATA`" in top.fix


def test_a_setting_cut_from_its_line_keeps_the_comment_after_it(tmp_path):
    run = run_with_script(tmp_path, "CONC=$(grep '^concurrency' eval.conf | cut -d: -f2)\n"
                                    f"{CLI} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent --limit $CONC "
                                    "--output m.jsonl || true\n", {"eval.conf": EVAL_CONF, **DATA})
    assert "unrecognized arguments: # the model server has 4 slots" in (run / "run_eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "settings_read_with_text_tools")
    assert [line.where for line in top.evidence] == ["run_eval.sh:2", "eval.conf:3", "run_eval.sh:3"]
    assert "`grep '^concurrency' eval.conf | cut -d: -f2 | sed 's/#.*//'" in top.fix


def test_a_setting_cut_with_its_comment_taken_off_is_no_finding(tmp_path):
    run = run_with_script(tmp_path, "CONC=$(grep '^concurrency' eval.conf | cut -d'#' -f1 | cut -d: -f2)\n"
                                    f"{CLI} materialize --input data.jsonl --num-repeats 1 --agent string_match_simple_agent --limit $CONC "
                                    "--output m.jsonl\n", {"eval.conf": EVAL_CONF, **DATA})

    assert all(f.id != "settings_read_with_text_tools" for f in diagnose(run).findings)


def test_an_array_quoted_with_a_star_reaches_the_command_as_one_argument(tmp_path):
    run = run_with_script(tmp_path, "ARGS=(--num-repeats 1 --agent string_match_simple_agent)\n"
                                    f'{CLI} materialize --input data.jsonl "${{ARGS[*]}}" --output m.jsonl || true\n',
                          DATA)
    assert "the following arguments are required: --num-repeats" in (run / "run_eval.log").read_text()

    top = diagnose(run).causes[0]

    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "run_eval.sh:2"]
    assert 'write `"${ARGS[@]}"`' in top.fix


def test_the_same_array_quoted_with_an_at_is_no_finding(tmp_path):
    run = run_with_script(tmp_path, "ARGS=(--num-repeats 1 --agent string_match_simple_agent)\n"
                                    f'{CLI} materialize --input data.jsonl "${{ARGS[@]}}" --output m.jsonl\n', DATA)

    assert all(f.id != "shell_pitfalls" for f in diagnose(run).findings)



@pytest.mark.parametrize(("setting", "fault"), [("num_repeats=4", True), ("NUM_REPEATS=4", False)])
def test_a_setting_in_other_letter_case_than_the_script_reads(tmp_path, setting, fault):
    run = run_with_script(tmp_path, "source settings.env\n"
                                    f"{CLI} materialize --input data.jsonl --num-repeats ${{NUM_REPEATS:-1}} "
                                    "--agent string_match_simple_agent --output m.jsonl\n",
                          {"settings.env": f"# edit here\n{setting}\n", **DATA})
    rows = len((run / "m.jsonl").read_text().splitlines())
    tasks = len(DATA["data.jsonl"].splitlines())

    findings = [f for f in diagnose(run).findings if f.id == "settings_read_with_text_tools"]

    if fault:
        assert rows == tasks  # one repeat: the default
        assert findings[0].category == "config"
        assert [line.where for line in findings[0].evidence] == ["settings.env:2", "run_eval.sh:3"]
        assert "`NUM_REPEATS=4`, in settings.env (not `num_repeats=4`)" in findings[0].fix
    else:
        assert rows == 4 * tasks and findings == []


@pytest.mark.parametrize("settings", ["REPEATS=3\n", "export REPEATS=3\n"])
def test_settings_sourced_without_export_do_not_reach_a_child_script(tmp_path, settings):
    """run_eval.sh sources settings.env, then runs its step as a child script that reads `${REPEATS:-1}`: a plain
    assignment stays in run_eval.sh's shell, so the step uses 1 while run_eval.sh prints 3. Exported, it arrives."""
    run = run_with_script(tmp_path, 'source ./settings.env\necho "eval x $REPEATS"\nbash steps/materialize.sh\n',
                          {"settings.env": settings,
                           "steps/materialize.sh": '#!/bin/bash\necho "step: ${REPEATS:-1} repeats"\n'})
    said = (run / "run_eval.log").read_text()

    report = diagnose(run)

    if settings.startswith("export"):
        assert said == "eval x 3\nstep: 3 repeats\n"
        assert all("without `export`" not in f.title for f in report.findings)
        return
    assert said == "eval x 3\nstep: 1 repeats\n"
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert top.title == ("steps/materialize.sh:2 reads REPEATS with a default, and settings.env:1 sets it without "
                         "`export`: the child script run_eval.sh runs used its default (1)")
    assert top.fix.startswith("Export the settings the step scripts read: `export REPEATS=3` in settings.env")


@pytest.mark.parametrize("declared", [False, True])
def test_a_table_by_split_without_declare_a_gives_every_split_the_last_file(tmp_path, declared):
    script = (("declare -A DATA\n" if declared else "") + "DATA[dev]=dev.jsonl\nDATA[test]=test.jsonl\n"
              'for split in dev test; do echo "$split ${DATA[$split]}"; done\n')
    run = run_with_script(tmp_path, script)
    log = (run / "run_eval.log").read_text()

    findings = diagnose(run).findings

    if declared:
        assert "dev dev.jsonl" in log and all(f.id != "shell_pitfalls" for f in findings)
        return
    assert "dev test.jsonl" in log  # bash really put both splits in one slot
    top = findings[0]
    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert top.title == ("run_eval.sh fills DATA[dev], DATA[test]... without `declare -A DATA`: every key is the same "
                         "slot, and all of them read test.jsonl")
    assert top.fix.startswith("In run_eval.sh, add `declare -A DATA` before the first `DATA[dev]=` line")


@pytest.mark.parametrize("prefix", ["exec ", ""])
def test_a_collect_run_with_exec_ends_the_script_before_its_profile(tmp_path, prefix):
    from script_support import CLI, MATERIALIZE, run_scripts

    run = run_scripts(tmp_path, [MATERIALIZE + f"{prefix}{CLI} collect --inputs rollouts_materialized_inputs.jsonl "
                                 "--output rollouts.jsonl --model-url URL --env string_match --concurrency 4\n"
                                 f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"])

    report = diagnose(run)

    if not prefix:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts_reward_profiling.jsonl").exists()  # the profile line never ran
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert top.title.startswith("run_eval.sh:3 `exec`s python: the shell is replaced by it, so line 4")
    assert top.fix.startswith("Remove `exec` from run_eval.sh:3 so the script goes on after that command")


@pytest.mark.parametrize("last_line", ["exit 0", 'echo "settings read"'])
def test_a_sourced_settings_file_ending_with_exit_ends_the_script_that_sources_it(tmp_path, last_line):
    """eval_settings.sh was a standalone script that printed its settings and ended with `exit 0`; sourced, its exit
    ends run_eval.sh itself, with status 0, before anything ran. Without the exit, the run is healthy."""
    from script_support import CLI, MATERIALIZE, run_scripts

    settings = f"#!/bin/bash\n# the weekly eval's settings\nCONCURRENCY=4\necho \"concurrency $CONCURRENCY\"\n{last_line}\n"
    run = run_scripts(tmp_path, ["source eval_settings.sh\n" + MATERIALIZE
                                 + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                                 "--model-url URL --env string_match --concurrency $CONCURRENCY\n"],
                      files={"eval_settings.sh": settings})

    report = diagnose(run)

    if last_line != "exit 0":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts_materialized_inputs.jsonl").exists()  # nothing after the source line ran
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert top.title.startswith("run_eval.sh:2 sources eval_settings.sh, which ends with `exit 0` (line 5): the script "
                                "stopped there, and line 3")
    assert top.fix.startswith("Take `exit 0` out of eval_settings.sh (line 5")


@pytest.mark.parametrize("test", ["[[ $REPEATS < 4 ]]", "[[ $REPEATS -lt 4 ]]"])
def test_a_floor_on_the_repeats_compared_as_text_cuts_ten_to_four(tmp_path, test):
    """run_eval.sh keeps at least 4 repeats with `[[ $REPEATS < 4 ]]`: inside [[ ]] `<` compares text, and "10" sorts
    before "4", so the run asked for 10 repeats gets 4. Compared with -lt, the 10 repeats run and it is healthy."""
    from script_support import CLI, MATERIALIZE, run_scripts

    script = (f"REPEATS=10\nif {test}; then\n  echo \"repeats $REPEATS below the minimum, using 4\"\n  REPEATS=4\nfi\n"
              + MATERIALIZE.replace("--num-repeats 3", "--num-repeats $REPEATS")
              + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
                "--env string_match --concurrency 8\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if "-lt" in test:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "shell_pitfalls"), [f.title for f in report.causes]
    assert top.title == ("run_eval.sh:3 compares REPEATS with `< 4` inside [[ ]], which compares text: 10 < 4 held as "
                         "text, so the branch ran with REPEATS=10")
    assert "`[[ $REPEATS -lt 4 ]]`" in top.fix


@pytest.mark.parametrize("setting", ["prefix", "own_line"])
def test_repeats_set_as_a_prefix_of_the_command_that_reads_them_keep_the_defaults_value(tmp_path, setting):
    """The team's defaults file sets REPEATS=1; the run script sets REPEATS=3 before the materialize command that reads
    `$REPEATS`: the shell expands it first, and the run materializes one repeat per task (config). Set on a line of
    its own, the three repeats are materialized and the run is healthy."""
    from script_support import CLI, run_scripts

    materialize = (f"{CLI} materialize --input data.jsonl --num-repeats $REPEATS --agent string_match_simple_agent "
                   "--output rollouts_materialized_inputs.jsonl\n")
    run = run_scripts(tmp_path, ["source ./eval_defaults.sh\n"
                                 + ("REPEATS=3 " + materialize if setting == "prefix" else "REPEATS=3\n" + materialize)
                                 + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                                 "--model-url URL --env string_match\n"],
                      files={"eval_defaults.sh": "# the team's defaults\nREPEATS=1  # smoke tests\n"})
    rows = (run / "rollouts_materialized_inputs.jsonl").read_text().splitlines()

    report = diagnose(run)

    if setting == "own_line":
        assert len(rows) == 30 and report.category == "healthy", [f.title for f in report.causes]
        return
    assert len(rows) == 10
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "shell_pitfalls")
    assert top.title == ("run_eval.sh:3 sets REPEATS=3 as a prefix of the command that reads $REPEATS: the shell "
                         "expanded $REPEATS first, so the command got 1")
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "eval_defaults.sh:2"]
    assert "(`--num-repeats 3`)" in top.fix


@pytest.mark.parametrize("start", ["exec ", ""])
def test_a_model_server_started_with_exec_keeps_the_eval_from_ever_running(tmp_path, start):
    """A job script starts the model server with `exec` (copied from a container entrypoint): the server replaces the
    script's shell and serves until the job's limit (`timeout 15` here) ends it, and the eval lines after it never
    run (model serving). Started in the background, with a wait for its ready file, the eval runs: healthy."""
    from script_support import CLI, materialize_line, string_match_run

    run, checkpoint = string_match_run(tmp_path, rows=6)
    background = "" if start else " &"
    (run / "eval_job.sh").write_text(
        f"#!/bin/bash\ncd {run}\nrm -f ready.url\n"
        f"{start}{CLI} serve-policy --checkpoint {checkpoint} --port 0 --ready-file ready.url --latency-ms 20"
        f"{background}\nSERVER=$!\nfor i in $(seq 60); do [ -s ready.url ] && break; sleep 0.5; done\n"
        + materialize_line(2)
        + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "
        "\"$(cat ready.url)\" --env string_match --concurrency 4\nkill $SERVER\n")
    with (run / "logs" / "eval_job.log").open("w") as log:
        subprocess.run(["timeout", "15", "bash", "eval_job.sh"], cwd=run, stdout=log, stderr=subprocess.STDOUT,
                       timeout=120)

    report = diagnose(run)

    if not start:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert not (run / "rollouts.jsonl").exists()
    top = report.causes[0]
    assert (top.category, top.id) == ("model_serving", "shell_pitfalls"), [f.title for f in report.causes]
    assert top.title.startswith("eval_job.sh:4 `exec`s python: the shell is replaced by it, so line 5")
    assert "start the model server in the background, `python ... &`" in top.fix


@pytest.mark.parametrize("killed_by", ["the script", "someone else"])
def test_a_heartbeat_the_script_kills_itself_is_no_fault(tmp_path: Path, killed_by: str) -> None:
    """A run script keeps a heartbeat loop in the background for the CI dashboard and ends it with `kill -9 $HB;
    wait $HB`: bash reports the job `Killed` at the `wait` line, which is the script's own doing (healthy). Killed
    by another process while the script waits on it, the same report is read."""
    kill = "kill -9 $HB\n" if killed_by == "the script" else "(sleep 2; kill -9 $HB) &\n"  # a watchdog's
    script = ("( while sleep 1; do echo \"[heartbeat] $(date +%T)\"; done ) &\nHB=$!\n"
              + MATERIALIZE + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
              "--model-url URL --env string_match --concurrency 4\n" + kill + "wait $HB\necho finished\n")
    run = run_scripts(tmp_path, [script])
    assert "Killed" in (run / "logs" / "run_eval_0.log").read_text()

    report = diagnose(run)

    if killed_by == "the script":
        assert report.category == "healthy", [f.title for f in report.causes]
    else:
        assert report.causes and report.causes[0].id == "shell_reported_signal", [f.title for f in report.causes]
