"""Values a command refused, made by the user's script from settings, run for real by bash against the simulated
policy.

- `read -r REPEATS CONCURRENCY < eval_settings.txt` over a file a teammate rewrote as `num_repeats=3 concurrency=4`:
  REPEATS holds `num_repeats=3`, which materialize refuses. The same file as `3 4` runs.
- `REPEATS=$(expr $BASE * 2)`: the shell expands the `*` to the folder's files, expr fails, REPEATS is empty. With
  `\\*`, the run is whole.
- `SPLITS=data/{easy,hard}.jsonl`, then `cat $SPLITS > data.jsonl`: the braces stay text, cat finds no such file and
  the data is empty. As an array, `SPLITS=(data/{easy,hard}.jsonl)` with `"${SPLITS[@]}"`, the run is whole.
- `REPEATS=$(jq -r .repeats eval_settings.json)` over a file whose key is `num_repeats`: jq prints `null`, which
  materialize refuses. With `.num_repeats`, the run is whole.
- `source settings.env` after `export PATH=<team tools>:$PATH`: bash finds the tools' own settings.env on PATH first,
  and the run takes its one repeat instead of the folder's three. With `source ./settings.env`, the run is whole.
- `bash setup_env.sh` where the settings file was meant to be sourced: its exports end with the child shell, and the
  run takes the default model server. Sourced, the run is whole.
"""

import json
import shutil
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

RUN = (f"{CLI} materialize --input data.jsonl --num-repeats $REPEATS --agent string_match_simple_agent "
       "--output rollouts_materialized_inputs.jsonl\n"
       f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
       "--env string_match --concurrency $CONCURRENCY\n")


@pytest.mark.parametrize("settings", ["num_repeats=3 concurrency=4", "3 4"])
def test_settings_read_with_read_from_a_file_rewritten_as_key_value_pairs(tmp_path: Path, settings: str) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "eval_settings.txt").write_text(settings + "\n")
    run = run_scripts(tmp_path, ["read -r REPEATS CONCURRENCY < eval_settings.txt   # repeats and concurrency\n" + RUN])

    report = diagnose(run)

    if settings == "3 4":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "read_split_a_settings_line_of_another_form")
    assert top.title == ("run_eval.sh:2 reads REPEATS with `read` from eval_settings.txt, whose line is now "
                         "`key=value` pairs: --num-repeats got 'num_repeats=3'")
    assert "write eval_settings.txt back as the bare values `read` expects (not `num_repeats=3 ...`)" in top.fix


@pytest.mark.parametrize("star", ["*", "\\*"])
def test_an_unquoted_star_in_expr_is_expanded_by_the_shell(tmp_path: Path, star: str) -> None:
    script = f"BASE=1\nREPEATS=$(expr $BASE {star} 2)   # twice the usual repeats\nCONCURRENCY=4\n" + RUN
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if star == "\\*":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "expr_star_expanded_by_the_shell")
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "logs/run_eval_0.log:1"]
    assert "(`expr $A \\* 2`) or use the shell's own arithmetic (`$((A * 2))`)" in top.fix


@pytest.mark.parametrize("form", ["plain", "array"])
def test_a_brace_pattern_kept_in_a_variable_is_never_expanded(tmp_path: Path, form: str) -> None:
    (tmp_path / "run" / "data").mkdir(parents=True)
    joined = {"plain": "SPLITS=data/{easy,hard}.jsonl\ncat $SPLITS > data.jsonl\n",
              "array": 'SPLITS=(data/{easy,hard}.jsonl)\ncat "${SPLITS[@]}" > data.jsonl\n'}[form]
    script = ("head -n 6 data.jsonl > data/easy.jsonl && tail -n 4 data.jsonl > data/hard.jsonl\n" + joined
              + "REPEATS=2\nCONCURRENCY=4\n" + RUN)
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if form == "array":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "brace_pattern_kept_in_a_variable")
    assert top.title == ("run_eval.sh:3 keeps the brace pattern data/{easy,hard}.jsonl in SPLITS: the shell never "
                         "expanded it, and the command given $SPLITS found no such file")
    assert [line.where for line in top.evidence] == ["run_eval.sh:3", "logs/run_eval_0.log:1"]
    assert "(`SPLITS=(data/{easy,hard}.jsonl)`, used as `\"${SPLITS[@]}\"`)" in top.fix


@pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed on this machine")
@pytest.mark.parametrize("key", [".repeats", ".num_repeats"])
def test_a_key_jq_reads_that_the_settings_file_does_not_have(tmp_path: Path, key: str) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "eval_settings.json").write_text(json.dumps({"num_repeats": 3, "concurrency": 4}) + "\n")
    run = run_scripts(tmp_path, [f"REPEATS=$(jq -r {key} eval_settings.json)\nCONCURRENCY=4\n" + RUN])

    report = diagnose(run)

    if key == ".num_repeats":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "jq_key_not_in_the_settings")
    assert top.title == ("run_eval.sh:2 reads REPEATS with `jq .repeats` from eval_settings.json, which has no such "
                         "key; its key is `num_repeats`: REPEATS is `null`")
    assert "(`jq -r .num_repeats`, not `jq -r .repeats`)" in top.fix


@pytest.mark.parametrize("sourced", ["settings.env", "./settings.env"])
def test_settings_sourced_by_a_bare_name_are_found_in_a_tools_folder_put_first_on_path(tmp_path: Path,
                                                                                      sourced: str) -> None:
    tools = tmp_path / "team-tools" / "bin"
    tools.mkdir(parents=True)
    (tools / "settings.env").write_text("# run-smoke's defaults\nREPEATS=1\nCONCURRENCY=2\n")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "settings.env").write_text("# weekly eval\nREPEATS=3\nCONCURRENCY=4\n")
    run = run_scripts(tmp_path, [f"export PATH={tools}:$PATH   # team-notify, run-smoke\nsource {sourced}\n" + RUN])

    report = diagnose(run)

    if sourced == "./settings.env":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "settings_sourced_from_path")
    assert top.title == ("run_eval.sh:3 sources settings.env by a bare name, and the run used REPEATS=1, not the 3 of "
                         "the folder's settings.env: bash read another settings.env found on PATH")
    assert [line.where for line in top.evidence] == ["run_eval.sh:2", "run_eval.sh:3", "settings.env:2"]
    assert top.fix.startswith("In run_eval.sh, source the run's own file by its path: `source ./settings.env`")


@pytest.mark.parametrize("load", ["bash setup_env.sh", "source setup_env.sh"])
def test_a_settings_file_run_with_bash_loses_its_exports(tmp_path: Path, load: str) -> None:
    """The CI step runs `bash setup_env.sh` before the eval: the child shell's exports end with it, and the eval falls
    back to the default model port, where nothing listens. Sourced, the exports reach the eval, and it is healthy."""
    script = ("printf 'export EVAL_SERVER=%s\\nexport REPEATS=2\\n' URL > setup_env.sh  # this week's server\n"
              f"{load}\nEVAL_SERVER=${{EVAL_SERVER:-http://127.0.0.1:9/v1}}  # the default port\n"
              f"{CLI} materialize --input data.jsonl --num-repeats ${{REPEATS:-1}} --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $EVAL_SERVER "
              "--env string_match --concurrency 4\n")
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if load.startswith("source"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "settings_file_run_instead_of_sourced"), [f.title for f in report.causes]
    assert top.title == ("run_eval.sh:3 runs `bash setup_env.sh`, a file of settings, in a shell of its own: its "
                         "EVAL_SERVER never reached run_eval.sh:4")
    assert top.fix.startswith("In run_eval.sh:3, source the file instead: `source setup_env.sh`")
