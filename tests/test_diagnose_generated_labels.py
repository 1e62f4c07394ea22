"""Labels a prep or generator writes otherwise than the questions ask, run for real. Numbers written with the general
format (`%g`, `:g`) keep six significant digits and an exponent past them: 299792458 becomes 2.99792e+08.

- A prep that gives every number one spelling with `"%g" % float(answer)` (3.0 and 3 agree) while converting the
  answer key: the tasks' labels are the key's without their full digits (data/schema, the prep's line named), not tasks
  older than the key. Dropping only a trailing `.0`, the labels keep their digits: healthy.
- A generator that computes the labels, `f"{a * b:g}"`: the same, named at its line. With `:d`: healthy.
- Quotients computed as `Fraction`s and written with `str()`: `7/2` where the model answers 3.5.
- Quotients rounded with `round()`, which rounds halves to even: 2 where the question (halves round up) asks 3.
- A sheet exported `answer, question` and unpacked by position: the labels are the questions.
"""

import json
import math
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

SUFFIX = " End your response with 'Final answer: <answer>'."
FACTS = [("What is the speed of light in vacuum, in metres per second?", "299792458"),
         ("How many seconds are there in a non-leap year?", "31536000"),
         ("What is 1234 multiplied by 1000?", "1234000"),
         ("What is the capital of Canada?", "Ottawa"),
         ("How many metres are there in a kilometre?", "1000"),
         ("How many days are there in a leap year?", "366")]
PRODUCTS = [(1234, 1000), (2048, 1024), (1500, 1500), (12, 34), (999, 1001), (25, 4)]


def _row(question: str, answer: str) -> dict:
    return {"responses_create_params": {"input": [{"role": "user", "type": "message",
                                                   "content": [{"type": "input_text", "text": question + SUFFIX}]}]},
            "expected_answer": answer, "extraction_mode": "final_answer"}


PREP = f'''"""prep.py: answer_key.tsv (question<TAB>answer) -> tasks.jsonl."""
import json


def norm(answer):
    """One spelling per number: '3.0' and '3' agree; words stay as they are."""
    try:
        return NORM
    except ValueError:
        return answer.strip()


with open("answer_key.tsv") as f, open("tasks.jsonl", "w") as out:
    next(f)
    for line in f:
        question, answer = line.rstrip("\\n").split("\\t")
        out.write(json.dumps({{"responses_create_params": {{"input": [{{"role": "user", "type": "message", "content": [
            {{"type": "input_text", "text": question + {SUFFIX!r}}}]}}]}}, "expected_answer": norm(answer),
            "extraction_mode": "final_answer"}}) + "\\n")
'''
GENERATOR = f'''"""make_tasks.py: operands.csv (a,b) -> tasks.jsonl, one multiplication per row."""
import csv
import json

with open("operands.csv") as f, open("tasks.jsonl", "w") as out:
    for a, b in ((int(r["a"]), int(r["b"])) for r in csv.DictReader(f)):
        out.write(json.dumps({{"responses_create_params": {{"input": [{{"role": "user", "type": "message", "content": [
            {{"type": "input_text", "text": f"What is {{a}} multiplied by {{b}}?" + {SUFFIX!r}}}]}}]}},
            "expected_answer": f"{{a * b:FORMAT}}", "extraction_mode": "final_answer"}}) + "\\n")
'''


def _eval(prepare: str) -> str:
    return (f"{CLI.split()[0]} {prepare}\n{CLI} materialize --input tasks.jsonl --num-repeats 3 --agent "
            "string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n"
            f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL --env "
            "string_match --concurrency 4\n")


@pytest.mark.parametrize("norm", ['"%g" % float(answer)',
                                  'str(int(float(answer))) if float(answer).is_integer() else answer'],
                         ids=["percent_g", "trailing_zero_only"])
def test_a_prep_giving_numbers_one_spelling_with_percent_g_cuts_long_labels(tmp_path: Path, norm: str) -> None:
    key = "question\tanswer\n" + "".join(f"{question}\t{answer}\n" for question, answer in FACTS)
    run = run_scripts(tmp_path, [_eval("prep.py")], rows=[_row(*fact) for fact in FACTS],
                      files={"answer_key.tsv": key, "prep.py": PREP.replace("NORM", norm)})
    labels = [json.loads(line)["expected_answer"] for line in (run / "tasks.jsonl").read_text().splitlines()]

    report = diagnose(run)

    if "is_integer" in norm:
        assert labels == [answer for _, answer in FACTS]
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert labels[0] == "2.99792e+08", labels
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_rewritten_by_the_prep"), [f.title for f in report.causes]
    assert top.title.startswith("The tasks' labels lost their full digits: '")
    assert top.evidence[-1].where == "prep.py:8" and "format numbers without `%g`" in top.fix


@pytest.mark.parametrize("written", ["g", "d"])
def test_labels_computed_and_written_with_the_general_format_lose_their_digits(tmp_path: Path, written: str) -> None:
    operands = "a,b\n" + "".join(f"{a},{b}\n" for a, b in PRODUCTS)
    rows = [_row(f"What is {a} multiplied by {b}?", str(a * b)) for a, b in PRODUCTS]
    run = run_scripts(tmp_path, [_eval("make_tasks.py")], rows=rows,
                      files={"operands.csv": operands, "make_tasks.py": GENERATOR.replace("FORMAT", written)})

    report = diagnose(run)

    if written == "d":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_in_a_spreadsheets_display_format"), [
        f.title for f in report.causes]
    assert "make_tasks.py:9 wrote with the general format" in top.title
    assert "instead of `%g`/`:g`" in top.fix


QUOTIENTS = [(84, 4), (7, 2), (9, 4), (144, 12), (5, 2), (33, 8)]
DIVISIONS = f'''"""make_divisions.py: operands.csv (a,b) -> tasks.jsonl, exact quotients (no float noise in the labels)."""
import csv
import json
from fractions import Fraction

with open("operands.csv") as f, open("tasks.jsonl", "w") as out:
    for a, b in ((int(r["a"]), int(r["b"])) for r in csv.DictReader(f)):
        quotient = Fraction(a, b)
        out.write(json.dumps({{"responses_create_params": {{"input": [{{"role": "user", "type": "message", "content": [
            {{"type": "input_text", "text": f"What is {{a}} divided by {{b}}?" + {SUFFIX!r}}}]}}]}},
            "expected_answer": LABEL, "extraction_mode": "final_answer"}}) + "\\n")
'''


@pytest.mark.parametrize("label", ["str(quotient)", 'format(float(quotient), "g")'], ids=["fraction", "decimal"])
def test_quotients_written_as_fractions_score_the_decimal_answers_zero(tmp_path: Path, label: str) -> None:
    """A generator computing the labels as exact `Fraction`s and writing `str(quotient)`: a quotient that is not
    whole reads `7/2`, the model answers 3.5, and right answers score 0 (data/schema, the Fraction's line named).
    Written as decimals: healthy."""
    operands = "a,b\n" + "".join(f"{a},{b}\n" for a, b in QUOTIENTS)
    rows = [_row(f"What is {a} divided by {b}?", format(a / b, "g")) for a, b in QUOTIENTS]
    run = run_scripts(tmp_path, [_eval("make_divisions.py")], rows=rows,
                      files={"operands.csv": operands, "make_divisions.py": DIVISIONS.replace("LABEL", label)})

    report = diagnose(run)

    if label != "str(quotient)":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert '"7/2"' in (run / "tasks.jsonl").read_text()
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "numbers_written_otherwise_in_expected_answers"), [
        f.title for f in report.causes]
    assert top.evidence[-1].where == "make_divisions.py:8" and "not `str()` of the `Fraction`" in top.fix


HALVES = [(5, 2), (9, 2), (13, 2), (17, 3), (50, 4), (7, 1)]
ROUNDING = f'''"""make_rounding.py: operands.csv (a,b) -> tasks.jsonl, quotients rounded to whole numbers."""
import csv
import json
import math

with open("operands.csv") as f, open("tasks.jsonl", "w") as out:
    for a, b in ((int(r["a"]), int(r["b"])) for r in csv.DictReader(f)):
        question = f"What is {{a}} divided by {{b}}, rounded to the nearest whole number (halves round up)?"
        out.write(json.dumps({{"responses_create_params": {{"input": [{{"role": "user", "type": "message", "content": [
            {{"type": "input_text", "text": question + {SUFFIX!r}}}]}}]}},
            "expected_answer": str(ROUNDED), "extraction_mode": "final_answer"}}) + "\\n")
'''


@pytest.mark.parametrize("rounded", ["round(a / b)", "math.floor(a / b + 0.5)"], ids=["round", "half_up"])
def test_labels_rounded_with_pythons_round_are_one_short_on_halves(tmp_path: Path, rounded: str) -> None:
    """A generator labelling "rounded (halves round up)" quotients with `round(a / b)`: Python rounds halves to even,
    so 5/2 is labelled 2 where the model answers 3 (data/schema, the line named). With `math.floor(x + 0.5)`:
    healthy."""
    operands = "a,b\n" + "".join(f"{a},{b}\n" for a, b in HALVES)
    question = "What is {} divided by {}, rounded to the nearest whole number (halves round up)?"
    rows = [_row(question.format(a, b), str(math.floor(a / b + 0.5))) for a, b in HALVES]
    run = run_scripts(tmp_path, [_eval("make_rounding.py")], rows=rows,
                      files={"operands.csv": operands, "make_rounding.py": ROUNDING.replace("ROUNDED", rounded)})

    report = diagnose(run)

    if rounded.startswith("math"):
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_rounded_half_to_even"), [f.title for f in report.causes]
    assert top.evidence[-1].where == "make_rounding.py:11" and "`math.floor(a / b + 0.5)` instead of" in top.fix


SHEET_PREP = f'''"""prep.py: answer_key.tsv (exported from the labelling sheet) -> tasks.jsonl."""
import json

with open("answer_key.tsv") as f, open("tasks.jsonl", "w") as out:
    next(f)  # header
    for line in f:
        question, answer = line.rstrip("\\n").split("\\t")
        out.write(json.dumps({{"responses_create_params": {{"input": [{{"role": "user", "type": "message", "content": [
            {{"type": "input_text", "text": question + {SUFFIX!r}}}]}}]}}, "expected_answer": answer,
            "extraction_mode": "final_answer"}}) + "\\n")
'''


@pytest.mark.parametrize("answer_first", [True, False], ids=["answer_first", "question_first"])
def test_a_sheet_exported_answer_first_read_by_position_swaps_question_and_answer(tmp_path: Path,
                                                                                  answer_first: bool) -> None:
    """The labelling sheet re-exported with its columns `answer, question`, and a prep that unpacks each line as
    `question, answer`: every label is a question and every prompt an answer, and every rollout scores 0 (data/schema:
    the header and the unpacking named, not the model's puzzled replies). Exported `question, answer`: healthy."""
    lines = [f"{answer}\t{question}" if answer_first else f"{question}\t{answer}" for question, answer in FACTS]
    header = "answer\tquestion" if answer_first else "question\tanswer"
    run = run_scripts(tmp_path, [_eval("prep.py")], rows=[_row(*fact) for fact in FACTS],
                      files={"answer_key.tsv": "\n".join([header, *lines]) + "\n", "prep.py": SHEET_PREP})

    report = diagnose(run)

    if not answer_first:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "question_and_answer_swapped"), [f.title for f in report.causes]
    assert [line.where for line in top.evidence[1:]] == ["answer_key.tsv:1", "prep.py:7"]
