"""The name a workspace verifier misspelt, and a file it could not open, found in the run folder beside it."""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from launcher_support import wait_for
from script_support import listening

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


@pytest.mark.parametrize(("pattern", "extracted"), [(r"(-?\d+)", "-8"), (r"(\d+)", None), (r"(\S+)", "-8")])
def test_what_the_verifiers_pattern_takes_from_an_answer_as_its_code_is_now(tmp_path, pattern, extracted):
    """The answer the code in the run folder would extract (found[-1] of its findall): the diagnosis compares it with
    what the run scored, to tell a server still running older code."""
    from gym_pipeline.diagnose.verifier_source import extraction_reading, verifier_sources

    server = tmp_path / "my_gym" / "resources_servers" / "signed_match"
    server.mkdir(parents=True)
    (server / "app.py").write_text(
        "import re\n\n\nasync def verify(self, body):\n"
        f"    found = re.findall(r\"Final answer:\\s*{pattern}\", body.response)\n"
        "    return float(bool(found) and found[-1] == body.expected_answer)\n")

    reading = extraction_reading(verifier_sources(tmp_path), tmp_path, "Final answer: -8")

    if extracted is None:
        assert reading is None
        return
    assert reading[:2] == ("my_gym/resources_servers/signed_match/app.py", 5) and reading[3] == extracted


def test_module_state_an_async_verify_writes_across_an_await_is_a_race(tmp_path):
    from gym_pipeline.diagnose.verifier_source import state_shared_across_awaits, verifier_sources

    source = ("import asyncio\n_CURRENT = {}\n\n\nasync def verify(self, body):\n"
              "    _CURRENT['expected'] = body.expected_answer\n{wait}    return _CURRENT['expected'] == body.answer\n")
    (tmp_path / "app.py").write_text(source.replace("{wait}", "    await asyncio.sleep(0)\n"))
    shared = ("app.py", 2, "_CURRENT", "body.expected_answer")
    assert state_shared_across_awaits(verifier_sources(tmp_path), tmp_path) == shared
    annotated = source.replace("_CURRENT = {}", "_CURRENT: dict = {}")  # declared with a type
    (tmp_path / "app.py").write_text(annotated.replace("{wait}", "    await asyncio.sleep(0)\n"))
    assert state_shared_across_awaits(verifier_sources(tmp_path), tmp_path) == shared
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


FINAL_LINE = '''def _final(text):
    return text.strip().splitlines()[-1].split(":")[-1].strip().strip("\\\\boxed{}.") if text.strip() else ""


def _normalize(text):
    return text.strip().lower()


'''
ONE_SIDED = FINAL_LINE + '''def score(row, response_text):
    answer = _final(response_text)
    answer = answer.upper()  # the labels team writes answers in capitals
    return {"reward": float(answer == EXPECTED)}
'''
HIDDEN_NAME_ERROR = FINAL_LINE + '''def score(row, response_text):
    try:
        return {"reward": float(NORMALIZE(_final(response_text)) == _normalize(str(row["expected_answer"])))}
    except Exception:
        return {"reward": 0.0}  # an answer we cannot compare is wrong
'''


def _scored_by(tmp_path: Path, verifier: str, labels: dict[str, str] | None = None,
               label_field: str = "expected_answer", wrong_answers: dict[str, list[str]] | None = None,
               repeats: int = 2):
    """The demo sweep of one environment scored by `verifier` (verifiers/mine.py), on the bundled string_match data
    or on questions with `labels` (kept in `label_field`), the policy's `wrong_answers` to them given."""
    from gym_pipeline.demo import run_demo
    from gym_pipeline.diagnose import diagnose

    home = tmp_path / "home"
    (home / "verifiers").mkdir(parents=True)
    (home / "verifiers" / "mine.py").write_text(verifier)
    dataset = "data/string_match.jsonl"
    if labels is not None:
        dataset = "data/mine.jsonl"
        (home / "data").mkdir()
        (home / dataset).write_text("".join(json.dumps({
            "responses_create_params": {"input": [{"role": "user", "content": f"{question} End your response with "
                                                                              "'Final answer: <answer>'."}]},
            label_field: answer, **({"distractors": wrong_answers[question]} if wrong_answers else {})}) + "\n"
            for question, answer in labels.items()))
    (home / "sweep.yaml").write_text(f"name: mine\nenvironments:\n  - {{name: mine, dataset: {dataset}, "
                                     f"verifier: 'mine:score'}}\nnum_repeats: {repeats}\n")
    run_demo(home, checkpoint_count=1, quiet=True)
    return diagnose(home / "runs" / "step_0100" / "mine")


@pytest.mark.parametrize("expected", ['str(row["expected_answer"])', 'str(row["expected_answer"]).upper()'],
                         ids=["answer_only", "both_sides"])
def test_a_verify_that_rewrites_only_the_answer_is_named_with_its_line(tmp_path, expected):
    """The team's verifier upper-cases the answer but not the label: every word answer scores 0, and the fix names the
    line and says to treat `expected_answer` alike. Upper-casing both sides is no fault."""
    report = _scored_by(tmp_path, ONE_SIDED.replace("EXPECTED", expected))

    if "upper()" in expected:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "last_line_answers_scored_zero")
    line = next(n for n, text in enumerate(ONE_SIDED.splitlines(), start=1) if "answer.upper()" in text)
    assert f"mine.py:{line} `answer = answer.upper()  # the labels team writes answers in capitals`." in top.fix
    assert f"mine.py:{line} rewrites only the answer: do the same to `expected_answer`" in top.fix


@pytest.mark.parametrize("normalize", ["_normalise", "_normalize"], ids=["misspelt", "defined"])
def test_a_name_error_a_broad_except_hides_is_named_with_the_name_meant(tmp_path, normalize):
    """The verifier calls `_normalise`, which its module never defines, inside `try: ... except Exception:` that
    scores 0: every answer scores 0 without an error, and the fix names the name, the one meant and the except."""
    source = HIDDEN_NAME_ERROR.replace("NORMALIZE", normalize)
    report = _scored_by(tmp_path, source)

    if normalize == "_normalize":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "verifier_runtime", [f.title for f in report.causes]
    lines = source.splitlines()
    call = next(n for n, text in enumerate(lines, start=1) if "_normalise(" in text)
    handler = next(n for n, text in enumerate(lines, start=1) if "except Exception" in text)
    assert (f"mine.py:{call} `{lines[call - 1].strip()}` uses `_normalise`, which the module never defines (did you "
            f"mean `_normalize`?): every call raises NameError, and ") in top.fix
    assert f"mine.py:{handler} `except Exception:` turns it into a reward without a word" in top.fix


def test_the_lines_a_verify_computes_its_reward_from_are_its_rewrites(tmp_path):
    from gym_pipeline.diagnose.verifier_source import answer_rewrites, verifier_sources

    (tmp_path / "app.py").write_text(
        "import difflib\n\n\nasync def verify(self, body):\n    text = body.text\n    reward = 0.0\n"
        "    similarity = difflib.SequenceMatcher(None, text, body.expected_answer).ratio()\n"
        "    reward = 1.0 if similarity >= 0.8 else 0.0\n    reward = max(0.0, reward - 0.01 * len(text))\n"
        "    return reward\n")

    assert [number for _, number, _ in answer_rewrites(verifier_sources(tmp_path), tmp_path)] == [7, 8, 9]
    (tmp_path / "app.py").write_text(  # the stock shape: the reward is what a helper returns
        "async def verify(self, body):\n    extracted = _extract(body.text)\n    reward = 0.0\n"
        "    reward = _answers_match(extracted, body.expected_answer)\n    return reward\n")
    assert answer_rewrites(verifier_sources(tmp_path), tmp_path) == []


@pytest.mark.parametrize(("line", "named"), [
    ("reward = 1.0 if abs(got - want) <= 1e-6 * want else 0.0", "want"),
    ("ok = abs(got - want) <= REL_TOL * expected", "expected"),
    ("reward = 1.0 if abs(got - want) <= 1e-6 * abs(want) else 0.0", None),
    ("ok = math.isclose(got, want, rel_tol=1e-6)", None),
])
def test_a_relative_tolerance_scaled_by_the_signed_label_is_named(line, named):
    """`abs(got - want) <= 1e-6 * want`: for a negative label the bound is negative and nothing passes; scaled by
    `abs(want)` (or compared with math.isclose) it is no fault. (The sentence is added to the verifier's lines that a
    reading of the scored rows names; see the tests above for those readings run for real.)"""
    from gym_pipeline.diagnose.rules import _signed_tolerance

    said = _signed_tolerance([("app.py", 12, line)])

    assert (f"app.py:12 scales the tolerance by `{named}` itself" in said) if named else said == ""


@pytest.mark.parametrize("debug_output", ['open("/dev/tty", "w")', "sys.stderr"])
def test_a_verifier_that_opens_the_terminal_is_named_when_a_server_without_one_gets_enxio(tmp_path, debug_output):
    """A verify printing its debug lines to /dev/tty: a process with no controlling terminal (setsid, as a server
    started in the background or in a job) gets ENXIO there, for real. The reading names the line; a verifier writing
    to stderr is not named."""
    from gym_pipeline.diagnose.evidence import collect_evidence
    from gym_pipeline.diagnose.rules.nesting import _terminal_opened

    app = tmp_path / "run" / "my_gym" / "resources_servers" / "exact_match" / "app.py"
    app.parent.mkdir(parents=True)
    app.write_text(f"import sys\n\n\ndef verify(body):\n    with {debug_output} as out:\n        print('graded', file=out)\n")
    opened = subprocess.run(["setsid", sys.executable, "-c", "open('/dev/tty', 'w')"], capture_output=True, text=True,
                            stdin=subprocess.DEVNULL)
    error = opened.stderr.strip().splitlines()[-1]
    assert "[Errno 6] No such device or address" in error

    said = _terminal_opened(collect_evidence(tmp_path / "run"), error)

    if "stderr" in debug_output:
        assert said == ""
        return
    assert said.startswith('my_gym/resources_servers/exact_match/app.py:5 opens /dev/tty (`with open("/dev/tty", "w") '
                           "as out:`)")



def test_a_similarity_threshold_is_one_of_the_lines_a_verify_compares_with(tmp_path):
    """A verifier forgiving typos with difflib's ratio (`SequenceMatcher(...).ratio() >= 0.5`) compares there: the
    line a finding of wrong answers credited names (the twenty-sixth set's case, made by a real sweep)."""
    from gym_pipeline.diagnose.verifier_source import COMPARISON, verifier_sources, verify_lines

    (tmp_path / "verifiers").mkdir()
    (tmp_path / "verifiers" / "forgiving.py").write_text(
        "from difflib import SequenceMatcher\n\n\ndef verify(row, text):\n    answer = text.strip().lower()\n"
        "    return 1.0 if SequenceMatcher(None, answer, row['expected_answer']).ratio() >= 0.5 else 0.0\n")

    assert [number for _, number, _ in verify_lines(verifier_sources(tmp_path), tmp_path, COMPARISON)] == [6]


@pytest.mark.parametrize("headline", ["AttributeError(\"'list' object has no attribute 'lower'\")",
                                      "AttributeError(\"'dict' object has no attribute 'strip'\")"])
def test_the_verify_line_reading_an_attribute_its_value_lacks(tmp_path, headline):
    """A user's resources server reads a message's `content` as a string (`question.lower()`): in a Responses request
    it is a list of parts. The nested verifier error's fix names the line (the twenty-fifth set's case, made by the
    real Gym); an attribute the verify never reads names nothing."""
    from gym_pipeline.diagnose.evidence import collect_evidence
    from gym_pipeline.diagnose.rules.nesting import _attribute_read_in_the_verifier

    server = tmp_path / "my_gym" / "resources_servers" / "unit_match"
    server.mkdir(parents=True)
    (server / "app.py").write_text(
        "class Server:\n    async def verify(self, body):\n"
        "        question = body.responses_create_params.input[-1].content\n"
        "        lenient = 'unit' in question.lower()\n        return 1.0 if lenient else 0.0\n")

    said = _attribute_read_in_the_verifier(collect_evidence(tmp_path), headline)

    if "strip" in headline:
        assert said == ""
        return
    assert said.startswith("my_gym/resources_servers/unit_match/app.py:4 (`lenient = 'unit' in question.lower()`) reads "
                           "`.lower` in the verifier's `verify`, where the value is a `list`: a message's `content`")


CASE_SETTING = FINAL_LINE + '''import os


def score(row, response_text):
    case_sensitive = bool(os.environ.get("VERIFIER_CASE_SENSITIVE", ""))  # the team's verifier.env sets it
    answer, expected = _final(response_text), str(row["expected_answer"])
    if not case_sensitive:
        answer, expected = answer.lower(), expected.lower()
    return {"reward": float(answer == expected)}
'''


@pytest.mark.parametrize("setting", ["false", ""], ids=["false", "empty"])
def test_a_yes_no_setting_read_with_bool_turns_on_when_set_to_false(tmp_path, monkeypatch, setting):
    """The team's verifier.env sets VERIFIER_CASE_SENSITIVE=false, which `bool()` reads as True: the verifier compares
    case by case, and the answers in other case than the labels score 0. Left empty, the setting is off: healthy."""
    run = tmp_path / "home" / "runs" / "step_0100" / "mine"
    run.mkdir(parents=True)
    (run / "verifier.env").write_text(f"# settings of the team verifier\nVERIFIER_CASE_SENSITIVE={setting}\n")
    monkeypatch.setenv("VERIFIER_CASE_SENSITIVE", setting)  # as `set -a; source verifier.env` exports it
    report = _scored_by(tmp_path, CASE_SETTING)

    if not setting:
        assert all(f.id != "yes_no_setting_read_with_bool" for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "yes_no_setting_read_with_bool")
    assert top.title.endswith("reads VERIFIER_CASE_SENSITIVE with `bool()`, so the `VERIFIER_CASE_SENSITIVE=false` "
                              "of verifier.env:2 turns the option on")


PLACEHOLDER_FILTER = FINAL_LINE + '''import re

PLACEHOLDERS = {"na", "none", "null", "unknown", "tbd"}  # what a model writes when it has no answer (N/A)


def score(row, response_text):
    answer = _final(response_text)
    bare = re.sub(r"[^a-z]", "", answer.lower())
    if bare in PLACEHOLDERS:
        return {"reward": 0.0, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
    reward = float(answer == row["expected_answer"])
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''
SYMBOLS = {"What is the chemical symbol of sodium?": "Na", "Which element has atomic number 11? Give its symbol.": "Na",
           "Which metal makes up the first half of table salt? Give its symbol.": "Na",
           "Which element colours a flame bright yellow? Give its symbol.": "Na",
           "What is the chemical symbol of potassium?": "K",
           "What is the chemical symbol of iron?": "Fe", "What is the chemical symbol of gold?": "Au",
           "What is the chemical symbol of tin?": "Sn"}


@pytest.mark.parametrize("sodium", [True, False])
def test_a_right_answer_the_verifier_reads_as_a_placeholder_is_named_with_its_set(tmp_path, sodium):
    """The verifier refuses placeholder answers by their letters: `Na`, sodium, reads as `na`, meant for N/A, and the
    right answers to that task score 0. Without a sodium task, nothing is refused."""
    labels = SYMBOLS if sodium else {q: a for q, a in SYMBOLS.items() if a != "Na"}
    report = _scored_by(tmp_path, PLACEHOLDER_FILTER, labels)

    if not sodium:
        assert all("placeholder" not in f.title for f in report.findings)
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "matching_answers_scored_zero"), top.title
    assert top.title.startswith("Right answers like 'Na' scored 0: ") and "mine.py:" in top.title
    assert "refuses them as the placeholder 'na' (PLACEHOLDERS)" in top.title


PORTED = '''"""Exact-answer scoring, ported from the old eval harness."""


def score(row, response_text):
    answer = response_text.strip().splitlines()[-1].removeprefix("Final answer:").strip()
    return {"reward": float(answer.lower() == str(row["LABEL"]).lower())}
'''


@pytest.mark.parametrize("fault", ["verifier", "rows"])
def test_a_verifier_reading_the_label_under_another_name_than_the_rows_is_the_verifiers_fault(tmp_path, fault):
    """A verifier ported from an older harness reads row["answer"], and the rows keep their label in
    `expected_answer`, as NeMo Gym's do: every rollout fails on a KeyError, and the verifier's line is to change. A
    verifier reading `expected_answer` on rows that keep it in `answer` is the data's fault."""
    labels = {"What is 6 times 7?": "42", "What is the capital of France?": "Paris", "What is 9 plus 10?": "19",
              "What is the chemical symbol for gold?": "Au"}
    read, kept = ("answer", "expected_answer") if fault == "verifier" else ("expected_answer", "answer")
    report = _scored_by(tmp_path, PORTED.replace("LABEL", read), labels=labels, label_field=kept)

    top = report.causes[0]
    if fault == "rows":
        assert (top.category, top.id) == ("data_schema", "failure_kinds"), [f.title for f in report.causes]
        assert top.title.startswith("The rows do not have the `expected_answer` the verifier reads")
        return
    assert (top.category, top.id) == ("verifier_runtime", "failure_kinds"), [f.title for f in report.causes]
    assert top.title.startswith("The verifier reads the label as `answer`, and the rows give it as `expected_answer`")
    line = next(n for n, text in enumerate(PORTED.splitlines(), start=1) if 'row["LABEL"]' in text)
    assert top.evidence[0].where.endswith(f"verifiers/mine.py:{line}")
    assert f"verifiers/mine.py line {line} instead of `answer`" in top.fix


MARKER_TAKEN_OFF = '''"""Exact-answer scoring: the answer after the last 'Final answer:' marker."""


def score(row, response_text):
    line = response_text.strip().splitlines()[-1]
    answer, expected = line.TAKE_OFF, str(row["expected_answer"])
    return {"reward": float(answer.lower() == expected.lower()), "extracted_answer": answer, "expected_answer": expected}
'''


@pytest.mark.parametrize("take_off", ['strip("Final answer: ")', 'removeprefix("Final answer: ")'],
                         ids=["character_set", "prefix"])
def test_a_verify_taking_the_marker_off_with_strip_eats_the_answers_letters(tmp_path, take_off):
    """The verifier takes the marker off the answer line with `.strip("Final answer: ")`: a set of characters, so a
    right answer ending in one of them loses letters (`Paris` becomes `P`) and scores 0. With `removeprefix`, the
    answers are whole and the run is healthy."""
    labels = {"What is the capital of France?": "Paris", "What is the capital of Peru?": "Lima",
              "What is the capital of Norway?": "Oslo", "Which planet is called the red planet?": "Mars",
              "What is the capital of Japan?": "Tokyo", "What is 6 times 7?": "42"}
    report = _scored_by(tmp_path, MARKER_TAKEN_OFF.replace("TAKE_OFF", take_off), labels=labels)

    if take_off.startswith("removeprefix"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "letters_stripped_as_a_set"), [f.title for f in report.causes]
    line = next(n for n, text in enumerate(MARKER_TAKEN_OFF.splitlines(), start=1) if "TAKE_OFF" in text)
    assert f"verifiers/mine.py:{line} takes the answer with `{take_off}`" in top.title
    assert "right answers scored 0" in top.title
    assert "`.removeprefix('Final answer: ')`" in top.fix


NUMERIC = '''"""Numeric answers after 'Final answer:' compared as numbers (so 42.0 == 42)."""
import re

FINAL = re.compile(r"final answer:\\s*(.+)", re.IGNORECASE)


def _number(text):
    try:
        return float(text.strip().rstrip(".").replace(",", ""))
    except ValueError:
        return None


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = _number(found[-1]) if found else None
    if MISSING:  # no number in the reply
        return {"reward": 0.0, "extracted_answer": None, "expected_answer": row["expected_answer"]}
    reward = float(answer == _number(row["expected_answer"]))
    return {"reward": reward, "extracted_answer": found[-1].strip(), "expected_answer": row["expected_answer"]}
'''


@pytest.mark.parametrize("missing", ["not answer", "answer is None"])
def test_a_verify_skipping_a_missing_number_with_if_not_takes_zero_for_none(tmp_path, missing):
    """The verifier parses the answer as a number and skips a missing one with `if not answer:`: 0.0 is false, so
    the tasks whose right answer is 0 never score. With `if answer is None:`, healthy."""
    labels = {"What is 5 minus 5?": "0", "What is 3 times 0?": "0", "What is 7 minus 7?": "0",
              "What is 0 divided by 4?": "0", "What is 2 plus 2?": "4", "What is 6 times 7?": "42"}
    report = _scored_by(tmp_path, NUMERIC.replace("MISSING", missing), labels=labels)

    if missing.endswith("is None"):
        assert all(f.id != "zero_answer_taken_for_none" for f in report.findings)
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "zero_answer_taken_for_none"), [f.title for f in report.causes]
    assert "`if not answer: # no number in the reply` takes the number 0 for no answer" in top.title
    assert "`if answer is None:` instead of `if not answer:`" in top.fix


BYTES_AGAINST_TEXT = '''"""Exact answers, normalised to NFC and compared as UTF-8 bytes (models return decomposed accents)."""
import unicodedata

''' + FINAL_LINE + '''def _normal(text):
    return unicodedata.normalize("NFC", text)ENCODE


def score(row, response_text):
    answer = _normal(_final(response_text))
    return {"reward": float(answer == row["expected_answer"].strip()), "expected_answer": row["expected_answer"],
            "extracted_answer": answer.decode() if isinstance(answer, bytes) else answer}
'''


@pytest.mark.parametrize("encode", ['.encode("utf-8")', ""], ids=["bytes", "str"])
def test_an_answer_made_bytes_and_compared_with_the_str_label_is_named_with_the_encode(tmp_path, encode):
    """The verifier normalises the answer and encodes it to UTF-8 bytes, then compares it with the row's str label:
    bytes never equal a str, so every right answer scores 0. Compared as str, the run is healthy."""
    report = _scored_by(tmp_path, BYTES_AGAINST_TEXT.replace("ENCODE", encode))

    if not encode:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "matching_answers_scored_zero"), top.title
    line = next(n for n, text in enumerate(BYTES_AGAINST_TEXT.replace("ENCODE", encode).splitlines(), 1)
                if ".encode(" in text)
    assert (f"mine.py:{line} `return unicodedata.normalize(\"NFC\", text).encode(\"utf-8\")` turns the text into "
            "bytes (`.encode(`)") in top.fix


UNCALLED_METHOD = FINAL_LINE + '''def score(row, response_text):
    answer = _final(response_text)
    label = str(row["expected_answer"]).strip()
    return {"reward": 1.0 if answer.casefold() == label.casefoldCALL else 0.0, "expected_answer": label,
            "extracted_answer": answer}
'''


@pytest.mark.parametrize("call", ["", "()"], ids=["named", "called"])
def test_a_string_method_compared_without_being_called_is_named(tmp_path, call):
    """The verifier compares `answer.casefold() == label.casefold`: the label's method is never called, a bound method
    equals no string, and every right answer scores 0. Called, the run is healthy."""
    report = _scored_by(tmp_path, UNCALLED_METHOD.replace("CALL", call))

    if call:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "matching_answers_scored_zero"), top.title
    line = next(n for n, text in enumerate(UNCALLED_METHOD.splitlines(), 1) if ".casefold" in text)
    assert f"mine.py:{line} `" in top.fix
    assert "compares with `.casefold` without calling it: a bound method equals no string" in top.fix
    assert any(evidence.where.endswith(f"verifiers/mine.py:{line}") for evidence in top.evidence)


SAME_OBJECT = FINAL_LINE + '''def score(row, response_text):
    answer = _final(response_text).lower()
    label = str(row["expected_answer"]).strip().lower()
    return {"reward": 1.0 if answer COMPARE label else 0.0, "expected_answer": row["expected_answer"],
            "extracted_answer": answer}
'''


@pytest.mark.parametrize("compare", ["is", "=="])
def test_a_verify_comparing_with_is_is_named_with_its_line(tmp_path, compare):
    """The verifier compares `answer is label`: two strings made apart are two objects, so right answers score 0 (a
    one-letter answer may be one shared object and score). With `==`, the run is healthy."""
    report = _scored_by(tmp_path, SAME_OBJECT.replace("COMPARE", compare))

    if compare == "==":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "verifier_runtime", top.title
    line = next(n for n, text in enumerate(SAME_OBJECT.splitlines(), 1) if "COMPARE" in text)
    assert f"mine.py:{line} `return {{\"reward\": 1.0 if answer is label else 0.0," in top.fix
    assert "compares with `is`, which asks whether two values are one object" in top.fix
    assert "compare with `==`" in top.fix


PART_OF_LABEL = FINAL_LINE + '''def score(row, response_text):
    answer = _final(response_text).lower()
    label = str(row["expected_answer"]).lower()
    return {"reward": float(bool(answer) and answer COMPARE label), "expected_answer": row["expected_answer"],
            "extracted_answer": answer}
'''


@pytest.mark.parametrize("compare", ["in", "=="])
def test_a_verify_crediting_answers_the_label_contains_is_named_with_its_line(tmp_path, compare):
    """The verifier tests `answer in label`: a cut answer (`pari` for Paris) is part of the label and scores 1. Compared
    with `==`, the run is healthy."""
    report = _scored_by(tmp_path, PART_OF_LABEL.replace("COMPARE", compare))

    if compare == "==":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "other_answers_credited"), top.title
    assert "one the label contains (`Pari` for `Paris`: a test `answer in expected_answer`)" in top.cause
    assert "and answer in label)" in top.fix


MARKER_OF_ONE_CASE = '''import re

FINAL = re.compile(r"Final Answer:\\s*(.+)"FLAGS)  # as the paper's prompt writes it


def score(row, response_text):
    found = FINAL.findall(response_text)
    answer = found[-1].strip().rstrip(".") if found else None
    return {"reward": float(answer is not None and answer.lower() == row["expected_answer"].strip().lower()),
            "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@pytest.mark.parametrize("flags", ["", ", re.IGNORECASE"], ids=["case_sensitive", "ignorecase"])
def test_an_answer_marker_matched_in_one_case_only_is_named_with_its_pattern(tmp_path, flags):
    """The verifier looks for `Final Answer:` as the paper's prompt writes it; the responses write `Final answer:`, so
    no answer is found and right answers score 0. With re.IGNORECASE, the pattern is not blamed (answers given in
    other forms, `\\boxed{}`, still score 0: another reading's)."""
    report = _scored_by(tmp_path, MARKER_OF_ONE_CASE.replace("FLAGS", flags))

    if flags:
        assert all("in that case only" not in f.fix for f in report.findings)
        return
    top = report.causes[0]
    assert top.category == "verifier_runtime", top.title
    assert "mine.py:3 `FINAL = re.compile(" in top.fix
    assert ("looks for `Final Answer:` in that case only, and the responses write `Final answer:`: add `re.IGNORECASE`"
            in top.fix)


@pytest.mark.parametrize("decorator", ["@functools.lru_cache(maxsize=1024)", "@cache", ""])
def test_an_async_function_under_a_cache_is_found(tmp_path, decorator):
    """`lru_cache` (or `functools.cache`) on an `async def` caches the coroutine, which can be awaited once: a real
    Gym run with it is in the corpus (forty_seventh_held_out); here, which code the reading names."""
    from gym_pipeline.diagnose.verifier_source import cached_coroutines

    app = tmp_path / "resources_servers" / "alias_match" / "app.py"
    app.parent.mkdir(parents=True)
    app.write_text(f"import functools\nfrom functools import cache\n\n\n{decorator}\nasync def _canonical(answer):\n"
                   "    return answer.lower()\n")

    found = cached_coroutines([app], tmp_path)

    assert found == ([("resources_servers/alias_match/app.py", 5, decorator, "_canonical")] if decorator else [])


MARKER_SKIPPED = '''MARKER = "Final answer:"


def score(row, response_text):
    at = response_text.lower().rfind("answer:")  # 'Final answer:', 'Final Answer:' or 'Answer:'
    answer = response_text[at + len(SKIPPED):].strip().rstrip(".") if at >= 0 else None
    reward = 1.0 if answer is not None and answer.lower() == str(row["expected_answer"]).strip().lower() else 0.0
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@pytest.mark.parametrize("skipped", ["MARKER", '"answer:"'], ids=["longer_marker", "found_marker"])
def test_a_slice_skipping_another_markers_length_than_the_one_found_is_named(tmp_path, skipped):
    """The verifier finds `answer:` with rfind and skips `len(MARKER)` ('Final answer:', six characters more): every
    answer loses its first six characters and scores 0. Skipping the length of what it found, healthy."""
    labels = {"What is the capital of France?": "Paris", "What is the capital of Peru?": "Lima",
              "What is the capital of Norway?": "Oslo", "Which planet is called the red planet?": "Mars",
              "What is the capital of Japan?": "Tokyo", "What is 6 times 7?": "42"}
    report = _scored_by(tmp_path, MARKER_SKIPPED.replace("SKIPPED", skipped), labels=labels)

    if skipped != "MARKER":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "verifier_runtime", [f.title for f in report.causes]
    assert ("mine.py:6 `answer = response_text[at + len(MARKER):].strip().rstrip(\".\") if at >= 0 else None` skips "
            "len('Final answer:') = 13 characters after where it found 'answer:' (7): the first 6 characters of every "
            "answer are cut") in top.fix, top.fix


SHARED_DEFAULT = FINAL_LINE + '''def _repeated(answer, SEEN):
    """Whether the answer was given before in this reply's debate (copied instead of reasoned)."""
    MADE
    if answer in seen:
        return True
    seen.add(answer)
    return False


def score(row, response_text):
    answer = _final(response_text)
    correct = answer.lower() == str(row["expected_answer"]).lower() and not _repeated(answer)
    return {"reward": float(correct), "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@pytest.mark.parametrize("seen", ["seen=set()", "seen=None"], ids=["shared_default", "per_call"])
def test_a_set_made_once_as_a_default_and_kept_across_requests_is_named(tmp_path, seen):
    """The verifier's copy check keeps the answers it saw in a default `seen=set()`: made once, it lasts across
    requests, so every repeat of a right answer scores 0. Made per call, healthy."""
    made = "seen = set() if seen is None else seen" if seen.endswith("None") else "pass"
    report = _scored_by(tmp_path, SHARED_DEFAULT.replace("SEEN", seen).replace("MADE", made))

    if seen.endswith("None"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "matching_answers_scored_zero"), [f.title for f in report.causes]
    line = next(n for n, text in enumerate(SHARED_DEFAULT.splitlines(), 1) if text.startswith("def _repeated"))
    assert (f"mine.py:{line} `def _repeated(answer, seen=set()):` gives `seen` a default made once, when the function "
            "is defined, and shared by every call") in top.fix, top.fix


@pytest.mark.parametrize("mode", ["unchecked-hash", "timestamp"])
def test_a_verifier_fix_not_run_because_its_bytecode_was_compiled_unchecked(tmp_path, mode):
    """The deploy step byte-compiles the verifiers with `--invalidation-mode unchecked-hash`; the verifier is fixed
    after (the label upper-cased like the answer), and the run still scores with the old bytecode: word answers score
    0. Compiled with timestamps, Python notices the edit and the run is healthy."""
    from gym_pipeline.demo import run_demo
    from gym_pipeline.diagnose import diagnose

    home = tmp_path / "home"
    (home / "verifiers").mkdir(parents=True)
    (home / "verifiers" / "mine.py").write_text(ONE_SIDED.replace("EXPECTED", 'str(row["expected_answer"])'))
    (home / "deploy_verifiers.sh").write_text(f"#!/bin/bash\n# byte-compile the verifiers once, at deploy\n"
                                              f"{sys.executable} -m compileall -q --invalidation-mode {mode} verifiers/\n")
    subprocess.run(["bash", "deploy_verifiers.sh"], cwd=home, check=True, timeout=60)
    time.sleep(1.1)  # the fix lands a second later: a timestamp pyc sees the newer source
    (home / "verifiers" / "mine.py").write_text(ONE_SIDED.replace("EXPECTED", 'str(row["expected_answer"]).upper()'))
    (home / "sweep.yaml").write_text("name: mine\nenvironments:\n  - {name: mine, dataset: data/string_match.jsonl, "
                                     "verifier: 'mine:score'}\nnum_repeats: 2\n")
    run_demo(home, checkpoint_count=1, quiet=True)
    run = home / "runs" / "step_0100" / "mine"
    shutil.copy(home / "deploy_verifiers.sh", run)  # the deploy script kept with the run, as the team does

    report = diagnose(run)

    if mode == "timestamp":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "verifier_run_from_unchecked_bytecode"), [
        f.title for f in report.causes]
    assert top.title.startswith("deploy_verifiers.sh:3 byte-compiles the verifier with `--invalidation-mode "
                                "unchecked-hash`: Python runs the .pyc in ")
    assert "`rm -rf " in top.fix and "__pycache__`" in top.fix


FLAGS_BY_POSITION = '''import re


def score(row, response_text):
    # drop the reasoning: keep what follows the last 'Final answer:'
    answer = re.sub(r"^.*final answer:", "", response_text, FLAGS).strip().rstrip(".")
    return {"reward": float(answer.lower() == str(row["expected_answer"]).strip().lower()),
            "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@pytest.mark.parametrize("flags", ["re.IGNORECASE | re.DOTALL", "flags=re.IGNORECASE | re.DOTALL"],
                         ids=["by_position", "by_name"])
def test_regex_flags_given_by_position_where_re_sub_takes_its_count_are_named(tmp_path, flags):
    """The verifier passes its flags to `re.sub` by position, where the count goes: the pattern runs case-sensitive
    and without DOTALL, never matches, and the whole reply is compared with the label. By name, the run is healthy."""
    labels = {"What is the capital of France?": "Paris", "What is the capital of Peru?": "Lima",
              "What is the capital of Norway?": "Oslo", "Which planet is called the red planet?": "Mars",
              "What is the capital of Japan?": "Tokyo", "What is 6 times 7?": "42"}
    report = _scored_by(tmp_path, FLAGS_BY_POSITION.replace("FLAGS", flags), labels=labels)

    if flags.startswith("flags="):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "verifier_runtime", top.title
    assert "mine.py:6 `answer = re.sub(" in top.fix, top.fix
    assert "gives the regex flags by position, where `re.sub` takes `count`" in top.fix, top.fix
    assert "`re.sub(..., flags=...)`" in top.fix


SPENT_ITERATOR = FINAL_LINE + '''_accepted = {}


def accepted(label):
    # normalise a label's accepted answers once, not again for every rollout
    if label not in _accepted:
        _accepted[label] = KEEP
    return _accepted[label]


def score(row, response_text):
    answer = _final(response_text).lower()
    label = str(row["expected_answer"]).strip()
    return {"reward": float(answer in accepted(label)), "extracted_answer": answer,
            "expected_answer": row["expected_answer"]}
'''


@pytest.mark.parametrize("keep", ["map(str.lower, [label])", "[label.lower()]"], ids=["map", "list"])
def test_a_one_pass_iterator_cached_for_later_rollouts_is_named(tmp_path, keep):
    """The verifier caches each label's accepted answers as `map(...)`: the first rollout's `in` uses the iterator up,
    and every later repeat of the task scores 0, right or wrong. Cached as a list, the run is healthy."""
    report = _scored_by(tmp_path, SPENT_ITERATOR.replace("KEEP", keep))

    if keep.startswith("["):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "verifier_runtime", top.title
    line = next(n for n, text in enumerate(SPENT_ITERATOR.splitlines(), 1) if "KEEP" in text)
    assert f"mine.py:{line} `_accepted[label] = map(str.lower, [label])` keeps a map(), a one-pass iterator" in top.fix
    assert "keep a list or a set instead" in top.fix


WITHOUT_SELF = FINAL_LINE + '''class Normalizer:
    """The team's answer normalizer."""

    def clean(PARAMETERS):
        return text.strip().rstrip(".").lower()


def score(row, response_text):
    answer = Normalizer().clean(_final(response_text))
    return {"reward": float(answer == str(row["expected_answer"]).strip().lower()), "extracted_answer": answer,
            "expected_answer": row["expected_answer"]}
'''


@pytest.mark.parametrize("parameters", ["text", "self, text"], ids=["without_self", "with_self"])
def test_a_verifier_method_defined_without_self_is_named_in_the_fix(tmp_path, parameters):
    """The verifier's helper method is defined without `self`: every call raises TypeError (one positional argument
    more than it takes), and the fix says to add `self` to that method. Defined with `self`, the run is healthy."""
    report = _scored_by(tmp_path, WITHOUT_SELF.replace("PARAMETERS", parameters))

    if parameters.startswith("self"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "verifier_runtime", [f.title for f in report.causes]
    assert "Normalizer.clean() takes 1 positional argument but 2 were given" in top.title + top.cause + top.fix
    assert "add `self` as its first parameter (`def clean(self, ...)`)" in top.fix, top.fix


CLAMPED = FINAL_LINE + '''def score(row, response_text):
    answer = _final(response_text)
    reward = 1.0 if _normalize(answer) == _normalize(str(row["expected_answer"])) else 0.0
    reward = CLAMP  # partial-credit rules may go out of range: keep the reward in [0, 1]
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''


@pytest.mark.parametrize("clamp", ["min(0.0, max(1.0, reward))", "max(0.0, min(1.0, reward))"],
                         ids=["swapped", "right"])
def test_a_clamp_with_its_bounds_swapped_is_named(tmp_path, clamp):
    """The verifier keeps its reward in [0, 1] with `min(0.0, max(1.0, reward))`: the outer bound wins, so every
    right answer scores 0. With the bounds the right way round, the run is healthy."""
    report = _scored_by(tmp_path, CLAMPED.replace("CLAMP", clamp))

    if clamp.startswith("max"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert top.category == "verifier_runtime", top.title
    assert ("mine.py:12 `reward = min(0.0, max(1.0, reward))  # partial-credit rules may go out of range: keep the "
            "reward in [0, 1]` clamps with its bounds swapped") in top.fix, top.fix
    assert "gives 0 every time; clamp with the lower bound outside, `max(0.0, min(1.0, reward))`" in top.fix


WORD_BOUNDED = FINAL_LINE + '''import re


def score(row, response_text):
    pattern = BEFORE + re.escape(row["expected_answer"]) + AFTER
    return {"reward": float(re.search(pattern, _final(response_text), flags=re.IGNORECASE) is not None)}
'''
SYMBOL_LABELS = {"Which language did Bjarne Stroustrup create?": "C++", "Which language did Microsoft design for .NET "
                 "in 2000?": "C#", "Which functional language ships with .NET?": "F#", "Which web portal's name ends "
                 "with an exclamation mark?": "Yahoo!", "What is the capital of France?": "Paris", "What is the "
                 "capital of Italy?": "Rome", "What is the capital of Spain?": "Madrid", "What is the capital of "
                 "Japan?": "Tokyo"}


@pytest.mark.parametrize("bounds", [(r'r"\b"', r'r"\b"'), (r'r"(?<!\S)"', r'r"(?!\S)"')],
                         ids=["word_boundaries", "whitespace_bounds"])
def test_a_verify_wrapping_the_label_in_word_boundaries_is_named_for_labels_ending_in_a_symbol(tmp_path, bounds):
    """The verifier matches the escaped label between `\\b`s: a label ending in a symbol (`C++`, `C#`) never matches
    itself, while plain labels score (verifier, the line named). Bounded by whitespace, healthy."""
    verifier = WORD_BOUNDED.replace("BEFORE", bounds[0]).replace("AFTER", bounds[1])
    report = _scored_by(tmp_path, verifier, labels=SYMBOL_LABELS)

    if "(?<!" in bounds[0]:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "last_line_answers_scored_zero"), top.title
    assert "verifiers/mine.py:13 wraps the label in word boundaries (`\\b`)" in top.title
    assert "instead of a word boundary (`\\b`)" in top.fix


@pytest.mark.parametrize("penalty", ["-1.0", "0.0"])
def test_a_wrong_answer_penalty_kept_from_an_rl_recipe_is_named_with_its_constant(tmp_path, penalty):
    """The eval's verifier was copied from an RL recipe and keeps its reward shaping: a wrong answer scores
    `WRONG_ANSWER_REWARD = -1.0`, so rewards run from -1 to 1 (verifier). At 0.0 the rewards are in [0, 1]."""
    verifier = (FINAL_LINE + f"WRONG_ANSWER_REWARD = {penalty}  # RL shaping: punish confident wrong answers\n\n\n"
                "def score(row, response_text):\n"
                '    right = _final(response_text).lower() == str(row["expected_answer"]).lower()\n'
                '    return {"reward": 1.0 if right else WRONG_ANSWER_REWARD}\n')
    report = _scored_by(tmp_path, verifier)

    if penalty == "0.0":
        assert all(f.id != "rewards_out_of_range" for f in report.findings), [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "rewards_out_of_range"), [f.title for f in report.causes]
    assert top.evidence[-1].text.startswith("WRONG_ANSWER_REWARD = -1.0")
    assert "verifiers/mine.py:9, set `WRONG_ANSWER_REWARD = 0.0`" in top.fix


LOGS_WHAT_IT_HANDLES = FINAL_LINE + '''import logging

log = logging.getLogger("numeric_or_text")


def score(row, response_text):
    answer, expected = _final(response_text), str(row["expected_answer"])
    try:
        return {"reward": float(abs(float(answer) - float(expected)) < 1e-9)}
    except ValueError:
        log.exception("not a number, comparing as text: %r", answer)
        return {"reward": float(_normalize(answer) == _normalize(expected))}
'''


def _collected_by_the_stage(tmp_path, verifier: str, labels: dict[str, str] | None = None):
    """The demo sweep of `verifier` (see `_scored_by`), then its collect and profile stages run again as a launcher
    runs them, each stage's output kept in logs/<stage>.log; the diagnosis of that run."""
    from gym_pipeline.diagnose import diagnose
    from gym_pipeline.host import free_loopback_port

    _scored_by(tmp_path, verifier, labels)
    home, port = tmp_path / "home", free_loopback_port()
    run = home / "runs" / "step_0100" / "mine"
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([sys.executable, "-m", "gym_pipeline.cli", "serve-policy", "--port", str(port),
                                   "--checkpoint", str(home / "checkpoints" / "step_0100")], stdout=log,
                                  stderr=subprocess.STDOUT)
    try:
        assert wait_for(lambda: listening(port), 120)
        for stage in ("collect", "profile"):
            with (run / "logs" / f"{stage}.log").open("w") as log:
                subprocess.run([sys.executable, "-m", "gym_pipeline.cli", "stage", stage, "--sweep-config",
                                str(home / "sweep.yaml"), "--checkpoint", "step_0100", "--env", "mine",
                                "--code-version", "v2", "--model-url", f"http://127.0.0.1:{port}/v1", "--model-name",
                                "sim-policy"], cwd=home, stdout=log, stderr=subprocess.STDOUT, timeout=300)
    finally:
        server.terminate()
        server.wait(10)
    return run, diagnose(run)


@pytest.mark.parametrize("handled", [True, False])
def test_a_verifier_logging_the_exception_it_handles_is_no_fault(tmp_path, handled: bool):
    """The team's verifier tries numbers first and logs, with its traceback, every word answer it then compares as
    text (`logger.exception`), collected by the stage as a launcher runs it: the log is full of tracebacks, and every
    rollout was scored as it should be. Re-raised instead, the word answers fail."""
    verifier = LOGS_WHAT_IT_HANDLES if handled else LOGS_WHAT_IT_HANDLES.replace(
        "        return {\"reward\": float(_normalize(answer) == _normalize(expected))}", "        raise")
    run, report = _collected_by_the_stage(tmp_path, verifier)
    assert "ValueError: could not convert string to float" in (run / "logs" / "collect.log").read_text()

    assert (report.category == "healthy") is handled, [f.title for f in report.causes]


GRADE_CACHE = '''"""Exact-answer scoring; each distinct answer is graded once (grading is the slow part on the 40k-row sets)."""

_GRADES = {}  # answer -> reward


def score(row, response_text):
    answer = response_text.strip().splitlines()[-1].removeprefix("Final answer:").strip()
    key = KEY
    if key not in _GRADES:
        _GRADES[key] = float(answer.lower() == str(row["expected_answer"]).lower())
    return {"reward": _GRADES[key], "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''
# each a country's largest city and another's capital, and the policy's wrong answer to the other question
CITIES = {"What is the largest city of Australia?": ("Sydney", "Canberra"),
          "What is the capital of Australia?": ("Canberra", "Sydney"),
          "What is the largest city of Canada?": ("Toronto", "Ottawa"),
          "What is the capital of Canada?": ("Ottawa", "Toronto"),
          "What is the largest city of Turkey?": ("Istanbul", "Ankara"),
          "What is the capital of Turkey?": ("Ankara", "Istanbul"),
          "What is the largest city of Brazil?": ("Sao Paulo", "Brasilia"),
          "What is the capital of Brazil?": ("Brasilia", "Sao Paulo")}


@pytest.mark.parametrize("key", ["answer.lower()", '(answer.lower(), row["expected_answer"])'],
                         ids=["answer_alone", "answer_and_label"])
def test_grades_cached_by_the_answer_alone_are_reused_for_other_questions(tmp_path, key):
    """The verifier grades each distinct answer once and keeps it in a module dict keyed by the answer: `Sydney`,
    wrong for the capital and right for the largest city, keeps whichever grade it got first, and right answers
    score 0. The fix names the cache's line and keys it by the label too; keyed by both, the run is healthy."""
    report = _scored_by(tmp_path, GRADE_CACHE.replace("KEY", key), {q: a for q, (a, _) in CITIES.items()},
                        wrong_answers={q: [wrong] for q, (_, wrong) in CITIES.items()}, repeats=4)

    if "expected_answer" in key:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "matching_answers_scored_zero"), [
        f.title for f in report.causes]
    line = next(n for n, text in enumerate(GRADE_CACHE.splitlines(), start=1) if "_GRADES[key] =" in text)
    assert f"verifiers/mine.py:{line} caches grades in `_GRADES` keyed by `key`, the answer alone: " in top.title
    assert "`expected_answer` as well as the answer (a tuple `(answer, expected_answer)`" in top.fix


LENGTH_GUARD = '''"""Exact-answer scoring, with the short-answer benchmark's guard against rambling answers."""

MAX_ANSWER_CHARS = LIMIT


def score(row, response_text):
    answer = response_text.strip().splitlines()[-1].removeprefix("Final answer:").strip()
    if len(answer) > MAX_ANSWER_CHARS:
        answer = None  # rambling: no credit
    reward = float(answer is not None and answer.lower() == row["expected_answer"].lower())
    return {"reward": reward, "extracted_answer": answer, "expected_answer": row["expected_answer"]}
'''
ARTISTS = {"Who painted 'The Starry Night'?": "Vincent van Gogh", "Which gas do plants take in from the air?": "Carbon dioxide",
           "What is the capital of France?": "Paris", "What is the chemical symbol of gold?": "Au",
           "Which planet is known as the red planet?": "Mars"}


@pytest.mark.parametrize("limit", [12, 40])
def test_a_length_guard_from_a_short_answer_benchmark_drops_the_long_right_answers(tmp_path, limit):
    """The team's verifier keeps no answer longer than MAX_ANSWER_CHARS = 12 (a guard copied from a short-answer
    benchmark): the right answers `Vincent van Gogh` and `Carbon dioxide` are thrown away and those tasks score 0
    on every rollout (verifier, the guard's line named). With a limit of 40, healthy."""
    report = _scored_by(tmp_path, LENGTH_GUARD.replace("LIMIT", str(limit)), ARTISTS, repeats=3)

    if limit == 40:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("verifier_runtime", "long_answers_dropped_by_a_length_guard"), [
        f.title for f in report.causes]
    line = next(n for n, text in enumerate(LENGTH_GUARD.splitlines(), start=1) if "len(answer)" in text)
    assert f"mine.py:{line} drops answers longer than 12 characters" in top.title
    assert "raise its limit (MAX_ANSWER_CHARS) above the length of the longest expected answer (16 characters)" in top.fix


@pytest.mark.parametrize("headline", ["ValueError(\"invalid literal for int() with base 10: '3.75'\")",
                                      "KeyError('expected_answer')"])
def test_the_verify_line_a_nested_error_was_raised_at_is_named_from_its_traceback(tmp_path, headline):
    """A user's resources server casts the label with `int(...)` (to accept padded answers): a decimal label raises
    ValueError there. Its real traceback, as the server's log keeps it with Gym's `(server)` prefix, names the line;
    the nested verifier error's fix quotes it (the hundred-and-sixth set's case). An error no traceback of the run's own
    code shows names nothing."""
    from gym_pipeline.diagnose.evidence import collect_evidence
    from gym_pipeline.diagnose.rules.nesting import _raising_line

    server = tmp_path / "run" / "my_gym" / "resources_servers" / "quiz_int"
    server.mkdir(parents=True)
    (server / "app.py").write_text("def verify(expected_answer, extracted):\n    got = int(extracted)\n"
                                   "    return float(got == int(expected_answer))\n")
    raised = subprocess.run([sys.executable, "-c", "import app; app.verify('3.75', '3')"], cwd=server,
                            capture_output=True, text=True)
    (tmp_path / "run" / "env_start.log").write_text("".join(f"(quiz_int) {line}\n"
                                                            for line in raised.stderr.splitlines()))

    said = _raising_line(collect_evidence(tmp_path / "run"), headline)

    if headline.startswith("KeyError"):
        assert said == ""
        return
    assert said.startswith("The run's own code raised it: my_gym/resources_servers/quiz_int/app.py:3 "
                           "`return float(got == int(expected_answer))` (ValueError: invalid literal for int()")
