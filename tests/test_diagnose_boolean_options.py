"""A flag the user's Python wrapper declares with argparse `type=bool`, given `--smoke False` by the weekly job: run
for real by bash against the simulated policy, the wrapper running the built-in engine. bool('False') is True, so the
weekly eval ran the smoke subset (config); the same with `--smoke $SMOKE` and `SMOKE=false`. The twin declares a switch (`action="store_true"`) and leaves it off."""

import sys
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

# the user's wrapper: the whole eval, or with --smoke 2 tasks and 1 repeat
WRAPPER = '''"""run_eval.py: the weekly eval; --smoke for a quick check of 2 tasks."""
import argparse, subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--model-url", required=True)
parser.add_argument("--smoke", DECLARED, help="2 tasks, 1 repeat (a quick check)")
args = parser.parse_args()
data, repeats = "data.jsonl", "3"
if args.smoke:
    with open("data.jsonl") as full, open("smoke.jsonl", "w") as out:
        out.writelines(full.readlines()[:2])
    data, repeats = "smoke.jsonl", "1"
print(f"run_eval: data={data} repeats={repeats}", flush=True)
subprocess.run(f"CLI materialize --input {data} --num-repeats {repeats} --agent string_match_simple_agent "
               "--output rollouts_materialized_inputs.jsonl", shell=True, check=True)
subprocess.run(f"CLI collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
               f"--model-url {args.model_url} --env string_match --concurrency 4", shell=True, check=True)
subprocess.run("CLI profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl", shell=True,
               check=True)
'''


@pytest.mark.parametrize(("declared", "given"), [("type=bool, default=False", " --smoke False"),
                                                 ("type=bool, default=False", " --smoke $SMOKE"),
                                                 ('action="store_true"', "")],
                         ids=["type_bool", "type_bool_through_a_variable", "store_true"])
def test_false_given_to_a_flag_declared_with_type_bool_turns_it_on(tmp_path: Path, declared: str, given: str) -> None:
    run = run_scripts(tmp_path, ["# the weekly job: the full eval (smoke off)\n"
                                 + ("SMOKE=false\n" if "$SMOKE" in given else "\n")
                                 + f"{sys.executable} run_eval.py --model-url URL{given}\n"],
                      files={"run_eval.py": WRAPPER.replace("DECLARED", declared).replace("CLI", CLI)})

    report = diagnose(run)

    if not given:
        assert "data=data.jsonl" in (run / "logs" / "run_eval_0.log").read_text()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "data=smoke.jsonl" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "false_given_to_an_option_read_with_bool"), [
        f.title for f in report.causes]
    value = "false" if "$SMOKE" in given else "False"
    assert top.title == (f"run_eval.sh:4 passes `--smoke {value}`, which run_eval.py:6 reads with argparse `type=bool`: "
                         f"bool('{value}') is True, so --smoke was on")
    assert '`action="store_true"` instead of `type=bool`' in top.fix


APPENDING = '''"""eval.py --data FILE [--data FILE ...]: the eval of the data files given (the smoke set when none is)."""
import argparse, subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--data", action="append", DEFAULT)
parser.add_argument("--model-url", required=True)
args = parser.parse_args()
files = args.data or ["smoke.jsonl"]
with open("tasks.jsonl", "w") as out:
    for name in files:
        out.write(open(name).read())
print(f"eval: {files}", flush=True)
subprocess.run("CLI materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
               "--output rollouts_materialized_inputs.jsonl", shell=True, check=True)
subprocess.run(f"CLI collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
               f"--model-url {args.model_url} --env string_match --concurrency 4", shell=True, check=True)
'''


@pytest.mark.parametrize("default", ['default=["smoke.jsonl"]', "default=None"], ids=["list_default", "none"])
def test_an_appended_option_keeps_its_default_list(tmp_path: Path, default: str) -> None:
    """`action="append"` with `default=["smoke.jsonl"]`: the weekly job's `--data data.jsonl` is appended to the
    smoke set, and the smoke tasks join the weekly eval (config, the declaration named). With `default=None` and the
    smoke set only when nothing is given, the weekly eval is of data.jsonl: healthy."""
    run = run_scripts(tmp_path, ["head -2 data.jsonl > smoke.jsonl\n"
                                 f"{sys.executable} eval.py --data data.jsonl --model-url URL\n"],
                      files={"eval.py": APPENDING.replace("DEFAULT", default).replace("CLI", CLI)})

    report = diagnose(run)

    if default == "default=None":
        assert "eval: ['data.jsonl']" in (run / "logs" / "run_eval_0.log").read_text()
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "eval: ['smoke.jsonl', 'data.jsonl']" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "option_appended_to_its_default"), [f.title for f in report.causes]
    assert top.title.startswith("run_eval.sh:3 gives `--data data.jsonl`, which eval.py:5 appends to its default")


@pytest.mark.parametrize("declared", ['action="store_true", default=True', 'action="store_true"'],
                         ids=["default_true", "default_false"])
def test_a_store_true_switch_defaulting_to_true_is_always_on(tmp_path: Path, declared: str) -> None:
    """`--smoke` declared `action="store_true", default=True` (left from debugging): the weekly job, which does not give
    it, still runs the smoke subset (config, the declaration named). Without the default, the full eval: healthy."""
    run = run_scripts(tmp_path, [f"# the weekly job: the full eval\n{sys.executable} run_eval.py --model-url URL\n"],
                      files={"run_eval.py": WRAPPER.replace("DECLARED", declared).replace("CLI", CLI)})

    report = diagnose(run)

    if "default=True" not in declared:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "data=smoke.jsonl" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("config", "switch_that_is_always_on"), [f.title for f in report.causes]
    assert "drop `default=True` from --smoke" in top.fix
