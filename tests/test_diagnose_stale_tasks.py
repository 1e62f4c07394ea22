"""A prep step that converts the labelling team's sheet (questions.csv) into tasks and keeps its result, run for real
two weeks in a row: the sheet is fixed (a label corrected, a question added), and the kept result is served again,
so the model's right answer to the fixed question scores 0. The diagnosis names the sheet's row, the task's old
label and the line that keeps the result (cache/resume). Keyed on the sheet's content (or replacing stored rows),
the tasks follow the sheet: healthy. A prep that writes the sheet as plain ASCII (`iconv -t ascii//TRANSLIT`) strips
the labels' accents (or a removal of punctuation, their decimal points), and the model's right answers score 0
(data); copied as it is, healthy."""

import csv
import io
from pathlib import Path

import pytest
from script_support import CLI, materialize_line, run_scripts

from gym_pipeline.diagnose import diagnose

QUESTIONS = [("What is the capital of Australia?", "Canberra"), ("How many sides does a hexagon have?", "6"),
             ("Which planet is known as the Red Planet?", "Mars"), ("What is the chemical symbol for gold?", "Au")]
LAST_WEEK = [("What is the capital of Australia?", "Sydney"), *QUESTIONS[1:3]]  # one wrong label, one question fewer
SHELVE_PREP = '''"""prep.py: questions.csv -> tasks.jsonl; parsed sheets are kept in .prep_cache"""
import csv, hashlib, json, shelve

SHEET = "questions.csv"
KEY = {key}
with shelve.open(".prep_cache") as cache:
    if KEY not in cache:
        cache[KEY] = list(csv.DictReader(open(SHEET, newline="")))
    rows = cache[KEY]
with open("tasks.jsonl", "w") as out:
    for row in rows:
        out.write(json.dumps({{"responses_create_params": {{"input": [{{"role": "user", "content":
            row["question"] + " End your response with 'Final answer: <answer>'."}}]}},
            "expected_answer": row["answer"]}}) + "\\n")
'''
STORE_PREP = '''"""prep.py: merge questions.csv into the task store tasks.db, then export tasks.jsonl"""
import csv, json, sqlite3

db = sqlite3.connect("tasks.db")
db.execute("CREATE TABLE IF NOT EXISTS tasks (question TEXT PRIMARY KEY, answer TEXT)")
rows = list(csv.DictReader(open("questions.csv", newline="")))
db.executemany("{insert}", [(r["question"], r["answer"]) for r in rows])
db.commit()
with open("tasks.jsonl", "w") as out:
    for question, answer in db.execute("SELECT question, answer FROM tasks"):
        out.write(json.dumps({{"responses_create_params": {{"input": [{{"role": "user", "content":
            question + " End your response with 'Final answer: <answer>'."}}]}}, "expected_answer": answer}}) + "\\n")
'''
PREPS = {
    "shelve_by_path": SHELVE_PREP.format(key="SHEET"),
    "shelve_by_content": SHELVE_PREP.format(key="hashlib.sha256(open(SHEET, 'rb').read()).hexdigest()"),
    "insert_or_ignore": STORE_PREP.format(insert="INSERT OR IGNORE INTO tasks VALUES (?, ?)"),
    "on_conflict_update": STORE_PREP.format(
        insert="INSERT INTO tasks VALUES (?, ?) ON CONFLICT(question) DO UPDATE SET answer = excluded.answer"),
}


def _sheet(rows: list[tuple[str, str]]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([("question", "answer"), *rows])
    return out.getvalue()


def _task(question: str, answer: str) -> dict:
    return {"responses_create_params": {"input": [{"role": "user", "content": question + " End your response with "
                                                   "'Final answer: <answer>'."}]}, "expected_answer": answer}


@pytest.mark.parametrize("prep", list(PREPS))
def test_tasks_kept_from_last_weeks_sheet_are_named_with_the_line_that_keeps_them(tmp_path: Path, prep: str):
    evaluate = (materialize_line(2, "tasks.jsonl")
                + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
                "--env string_match --concurrency 4\n"
                f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    run = run_scripts(tmp_path, ["cp last_week.csv questions.csv\npython3 prep.py\n",
                                 "cp this_week.csv questions.csv\npython3 prep.py\n" + evaluate],
                      rows=[_task(*row) for row in QUESTIONS],  # the policy knows the right answers
                      files={"prep.py": PREPS[prep], "last_week.csv": _sheet(LAST_WEEK), "this_week.csv": _sheet(QUESTIONS)})
    kept = prep in ("shelve_by_path", "insert_or_ignore")
    assert ('"Sydney"' in (run / "tasks.jsonl").read_text()) == kept  # the old label really stayed

    report = diagnose(run)

    if not kept:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("cache_resume", "tasks_older_than_their_source"), top.title
    assert [line.file for line in top.evidence] == ["rollouts_materialized_inputs.jsonl", "questions.csv", "prep.py"]
    assert "'Canberra' in questions.csv, 'Sydney' in the tasks" in top.title
    assert ("`ON CONFLICT ... DO UPDATE`" if prep == "insert_or_ignore" else "`rm -rf .prep_cache`") in top.fix


ACCENTED = [("What is the largest city in Brazil?", "São Paulo"), ("What is the capital of Iceland?", "Reykjavík"),
            ("What is the capital of Germany?", "Berlin"), ("What is the capital of Colombia?", "Bogotá")]
SHEET_TO_TASKS = '''"""sheet_to_tasks.py SHEET: a question,answer sheet -> tasks.jsonl"""
import csv, json, sys

with open("tasks.jsonl", "w") as out:
    for row in csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")):
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "content":
            row["question"] + " End your response with 'Final answer: <answer>'."}]},
            "expected_answer": row["answer"]}, ensure_ascii=False) + "\\n")
'''


PUNCTUATED = [("What is pi rounded to two decimal places?", "3.14"),
              ("Which Australian band recorded Highway to Hell?", "AC/DC"),
              ("What is the capital of Germany?", "Berlin"), ("What is the capital of France?", "Paris")]
STRIP_PUNCTUATION = (
    '"""strip_punctuation.py SHEET OUT: reviewers leave stray full stops around answers: strip punctuation"""\n'
    "import csv, string, sys\n\n"
    'STRAY = str.maketrans("", "", string.punctuation)\n'
    'rows = list(csv.DictReader(open(sys.argv[1], newline="")))\n'
    'with open(sys.argv[2], "w", newline="") as out:\n'
    '    writer = csv.DictWriter(out, ["question", "answer"])\n'
    "    writer.writeheader()\n"
    '    writer.writerows({"question": r["question"], "answer": r["answer"].translate(STRAY).strip()} for r in rows)\n')


SPACED = [("What is the capital of India?", "New Delhi"), ("Who wrote Hamlet?", "William Shakespeare"),
          ("What is pi rounded to two decimal places?", "3.14"), ("What is the capital of Germany?", "Berlin")]
ESCAPE_LABELS = (
    '"""escape_labels.py SHEET OUT: labels are matched literally (kept from the regex grader of the v1 harness)"""\n'
    "import csv, re, sys\n\n"
    'rows = list(csv.DictReader(open(sys.argv[1], newline="")))\n'
    'with open(sys.argv[2], "w", newline="") as out:\n'
    '    writer = csv.DictWriter(out, ["question", "answer"])\n'
    "    writer.writeheader()\n"
    '    writer.writerows({"question": r["question"], "answer": re.escape(r["answer"])} for r in rows)\n')


@pytest.mark.parametrize(("how", "sheet", "copy", "title"), [
    ("accents", ACCENTED, "iconv -f utf-8 -t ascii//TRANSLIT questions.csv > questions_clean.csv",
     "The tasks' labels lost their accents: 'São Paulo' in questions.csv is 'Sao Paulo'"),
    ("accented letters", ACCENTED, "python3 -c \"import sys; open('questions_clean.csv', 'w').write(open("
     "'questions.csv', encoding='utf-8').read().encode('ascii', 'ignore').decode())\"",
     "The tasks' labels lost their accented letters: 'São Paulo' in questions.csv is 'So Paulo'"),
    ("punctuation", PUNCTUATED, "python3 strip_punctuation.py questions.csv questions_clean.csv",
     "The tasks' labels lost their punctuation: '3.14' in questions.csv is '314'"),
    ("regex escapes", SPACED, "python3 escape_labels.py questions.csv questions_clean.csv",
     "The tasks' labels gained regex escapes (backslashes): 'New Delhi' in questions.csv is 'New\\\\ Delhi'"),
    ("kept", ACCENTED, "cat questions.csv > questions_clean.csv", None)])
def test_labels_the_prep_strips_are_named_with_its_line(tmp_path: Path, how, sheet, copy, title):
    evaluate = (f"# the old dedup tool mangles multi-byte characters; reviewers leave stray full stops\n{copy}\n"
                "python3 sheet_to_tasks.py questions_clean.csv\n" + materialize_line(2, "tasks.jsonl")
                + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
                "--env string_match --concurrency 4\n"
                f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")
    run = run_scripts(tmp_path, [evaluate], rows=[_task(*row) for row in sheet],
                      files={"sheet_to_tasks.py": SHEET_TO_TASKS, "strip_punctuation.py": STRIP_PUNCTUATION,
                             "escape_labels.py": ESCAPE_LABELS, "questions.csv": _sheet(sheet)})
    tasks = (run / "tasks.jsonl").read_text()
    rewritten = ('"Sao Paulo"', '"So Paulo"', '"314"', '"New\\\\ Delhi"')
    assert any(label in tasks for label in rewritten) == bool(title)  # really stripped (or escaped)

    report = diagnose(run)

    if title is None:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_rewritten_by_the_prep"), top.title
    assert top.title.startswith(title)
    assert top.fix.startswith({"accents": "In run_eval.sh (line 3), drop the transliteration",
                               "accented letters": "In run_eval.sh (line 3), drop the conversion to ASCII that ignores",
                               "punctuation": "In strip_punctuation.py (line 4), drop the removal of punctuation",
                               "regex escapes": "In escape_labels.py (line 8), drop `re.escape`"}[how])
