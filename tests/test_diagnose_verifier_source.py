"""The name a workspace verifier misspelt, found in its source beside the run."""

from pathlib import Path

from gym_pipeline.diagnose.verifier_source import undefined_name_hint

VERIFIER = '''def score(row, response_text):
    if row.get("strict"):
        return {"reward": float(respone_text == row["expected_answer"])}
    return {"reward": float(helper_that_was_never_written(response_text))}
'''


def run_with_verifier(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    (run / "verifiers").mkdir(parents=True)
    (run / "verifiers" / "my_verifier.py").write_text(VERIFIER)
    (run / "sweep.yaml").write_text(
        "name: nightly\n"
        "environments:\n  - {name: exact_answer, dataset: data.jsonl, verifier: 'my_verifier:score'}\n"
        f"checkpoints_dir: {tmp_path / 'checkpoints'}\nruns_dir: {tmp_path / 'runs'}\n"
        f"verifiers_dir: {run / 'verifiers'}\n")
    return run


def test_a_misspelt_name_is_found_at_its_line_with_the_name_it_meant(tmp_path):
    hint = undefined_name_hint(run_with_verifier(tmp_path), "NameError: name 'respone_text' is not defined")
    assert hint == "`respone_text` is used at verifiers/my_verifier.py:3; did you mean `response_text`? "


def test_a_name_with_nothing_close_is_only_located(tmp_path):
    hint = undefined_name_hint(run_with_verifier(tmp_path),
                               "NameError: name 'helper_that_was_never_written' is not defined")
    assert hint == "`helper_that_was_never_written` is used at verifiers/my_verifier.py:4 and defined nowhere in that file "


def test_no_hint_without_a_verifier_source_or_when_python_already_suggested_one(tmp_path):
    run = run_with_verifier(tmp_path)
    assert undefined_name_hint(run, "NameError: name 'respone_text' is not defined. Did you mean: 'response_text'?") is None
    assert undefined_name_hint(run, "KeyError: 'expected_answer'") is None
    assert undefined_name_hint(tmp_path / "elsewhere", "NameError: name 'respone_text' is not defined") is None
