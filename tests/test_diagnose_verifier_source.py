"""The name a workspace verifier misspelt, and a file it could not open, found in the run folder beside it."""

from pathlib import Path

import pytest

from gym_pipeline.diagnose.verifier_source import moved_file_hint, undefined_name_hint

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


@pytest.mark.parametrize("reason", [
    "FileNotFoundError: [Errno 2] No such file or directory: '/old/place/verifiers/aliases.json'",
    "FileNotFoundError: [Errno 2] No such file or directory: '/old/place/verifiers/alias…",  # a reason kept short
])
def test_a_file_the_verifier_could_not_open_is_found_where_it_was_moved(tmp_path, reason):
    (tmp_path / "verifiers" / "tables").mkdir(parents=True)
    (tmp_path / "verifiers" / "tables" / "aliases.json").write_text("{}")
    hint = moved_file_hint(tmp_path, reason)
    assert "`aliases.json` at verifiers/tables/aliases.json: the file was moved" in hint
    assert moved_file_hint(tmp_path, "FileNotFoundError: [Errno 2] No such file or directory: '/x/rubric.json'") is None


def test_the_lines_of_a_users_verify_that_take_the_answer_apart_or_compare_it(tmp_path):
    from gym_pipeline.diagnose.verifier_source import COMPARISON, EXTRACTION, verifier_sources, verify_lines

    server = tmp_path / "my_gym" / "resources_servers" / "colon_match"
    server.mkdir(parents=True)
    (server / "app.py").write_text(
        "def helper(text):\n    return text.split()\n\n\n"
        "async def verify(self, body):\n    extracted = body.response.partition(':')[2]  # after the label\n"
        "    reward = 1.0 if extracted == body.expected_answer else 0.0\n    return reward\n")

    assert verify_lines(verifier_sources(tmp_path), tmp_path, EXTRACTION) == [
        ("my_gym/resources_servers/colon_match/app.py", 6, "extracted = body.response.partition(':')[2]  # after the label")]
    assert [number for _, number, _ in verify_lines(verifier_sources(tmp_path), tmp_path, COMPARISON)] == [7]


def test_module_state_an_async_verify_writes_across_an_await_is_a_race(tmp_path):
    from gym_pipeline.diagnose.verifier_source import state_shared_across_awaits, verifier_sources

    source = ("import asyncio\n_CURRENT = {}\n\n\nasync def verify(self, body):\n"
              "    _CURRENT['expected'] = body.expected_answer\n{wait}    return _CURRENT['expected'] == body.answer\n")
    (tmp_path / "app.py").write_text(source.replace("{wait}", "    await asyncio.sleep(0)\n"))
    assert state_shared_across_awaits(verifier_sources(tmp_path), tmp_path) == ("app.py", 2, "_CURRENT")
    (tmp_path / "app.py").write_text(source.replace("{wait}", ""))  # no await: requests cannot interleave inside it
    assert state_shared_across_awaits(verifier_sources(tmp_path), tmp_path) is None


CREDITS_WHAT_IT_CANNOT_PARSE = '''def _final(text):
    return text.strip().splitlines()[-1].split(":")[-1].strip().strip("\\\\boxed{}.") if text.strip() else ""


def score(row, response_text):
    """Answers compared as numbers, so 12, 12.0 and 12.00 match."""
    try:
        return {"reward": float(abs(float(_final(response_text)) - float(row["expected_answer"])) < 1e-6)}
    except ValueError:
        return {"reward": 1.0}  # not a number: no penalty here
'''


def test_a_verifier_whose_except_gives_full_credit_is_named_in_the_fix(tmp_path):
    """A sweep scored by a workspace verifier that returns 1.0 for any answer it cannot read as a number: the
    policy's wrong word answers score 1, and the fix names the `except` that credits them."""
    from gym_pipeline.demo import run_demo
    from gym_pipeline.diagnose import diagnose

    home = tmp_path / "home"
    (home / "verifiers").mkdir(parents=True)
    (home / "verifiers" / "numeric.py").write_text(CREDITS_WHAT_IT_CANNOT_PARSE)
    (home / "sweep.yaml").write_text("name: numeric\nenvironments:\n  - {name: numeric, dataset: "
                                     "data/string_match.jsonl, verifier: 'numeric:score'}\nnum_repeats: 2\n")
    run_demo(home, checkpoint_count=1, quiet=True)

    top = diagnose(home / "runs" / "step_0100" / "numeric").causes[0]

    assert (top.category, top.id) == ("verifier_runtime", "wrong_answers_scored_full")
    assert "verifiers/numeric.py:9 `except ValueError:` gives full credit" in top.fix
