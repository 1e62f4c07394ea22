"""A data-preparation script that loses questions of its export or cuts their text, run for real: every command
exits 0 and the profile looks like any other, but distinct questions sharing a start were dropped as duplicates
(`question[:20]`), or long questions reached the model shortened (`textwrap.shorten`). The diagnosis reads the export
beside the run against the prompts evaluated and names the script's line (data/schema). The twins (the whole
question as the key, a width no question reaches) stay healthy."""

import csv
import io
import json
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

PREP = '''"""prep.py: the labelling tool's export.csv -> tasks.jsonl."""
import csv
import json
import textwrap

WIDTH = {width}
rows, seen = [], set()
with open("export.csv", newline="") as f:
    for record in csv.DictReader(f):
        question = record["question"]
        key = {key}.lower()  # the scraper repeats questions with other trailing punctuation
        if key in seen:
            continue
        seen.add(key)
        text = textwrap.shorten(question, width=WIDTH, placeholder=" [...]")
        rows.append({{"responses_create_params": {{"input": [{{"role": "user", "content": text}}]}},
                     "expected_answer": record["answer"], "extraction_mode": record["extraction_mode"]}})
with open("tasks.jsonl", "w") as out:
    out.writelines(json.dumps(row) + "\\n" for row in rows)
'''
SCRIPT = (f"python3 prep.py\n{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
          "--output rollouts_materialized_inputs.jsonl\n"
          f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
          "--env string_match --concurrency 4\n")


def _export(rows: int) -> str:
    table = io.StringIO()
    writer = csv.writer(table)
    writer.writerow(["question", "answer", "extraction_mode"])
    for line in get_environment("string_match").dataset_path.read_text().splitlines()[:rows]:
        row = json.loads(line)
        content = row["responses_create_params"]["input"][0]["content"]
        writer.writerow([content if isinstance(content, str) else content[0]["text"], row["expected_answer"],
                         row["extraction_mode"]])
    return table.getvalue()


def _run(tmp_path: Path, width: int, key: str) -> Path:
    files = {"export.csv": _export(12), "prep.py": PREP.format(width=width, key=key)}
    return run_scripts(tmp_path, [SCRIPT], files=files)


@pytest.mark.parametrize("key", ["question[:20]", "question.strip()"])
def test_distinct_questions_dropped_by_a_key_on_their_start(tmp_path: Path, key: str) -> None:
    run = _run(tmp_path, 400, key)
    assert (run / "rollouts.jsonl").is_file()

    report = diagnose(run)

    if key == "question.strip()":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "questions_lost_or_cut_by_the_prep_script"), [f.title for f in report.causes]
    assert top.title == ("2 of the 12 questions of export.csv are in no prompt the run evaluated, though no kept "
                         "question repeats them (first: 'What is the capital of Mongolia? Put your final answer in "
                         "\\\\boxed{}.')")
    assert top.evidence[0].text == "key = question[:20].lower() # the scraper repeats questions with other trailing punctuation"
    assert top.fix.startswith("In prep.py:11 (`key = question[:20].lower()")


@pytest.mark.parametrize("width", [60, 400])
def test_long_questions_shortened_by_the_prep_script(tmp_path: Path, width: int) -> None:
    run = _run(tmp_path, width, "question")

    report = diagnose(run)

    if width == 400:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "questions_lost_or_cut_by_the_prep_script"), [f.title for f in report.causes]
    assert top.title.startswith("11 of the 12 questions of export.csv reach the model cut short"), top.title
    assert top.fix.startswith("In prep.py:15 (`text = textwrap.shorten(question, width=WIDTH"), top.fix
