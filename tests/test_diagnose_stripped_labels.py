"""A prep script that removes the answer sheet's `Answer: ` prefix with `strip("Answer: ")`, run for real: strip
removes any of those characters from both ends, so `Hydrogen` becomes the label `Hydrog` and the model's right
answers score 0 while every command exits 0. The diagnosis names the line (data/schema). With `removeprefix`, the
labels are whole and the run is healthy."""

import json
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

PREP = '''"""prep.py: the reviewers' answer sheet (answers.txt: question | Answer: ...) -> tasks.jsonl."""
import json

with open("answers.txt") as sheet, open("tasks.jsonl", "w") as out:
    for line in sheet:
        question, answer, mode = line.rstrip("\\n").split(" | ")
        answer = REMOVE  # drop the sheet's "Answer: " prefix
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "content": question}]},
                              "expected_answer": answer, "extraction_mode": mode}) + "\\n")
'''
SCRIPT = (f"python3 prep.py\n{CLI} materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent "
          "--output rollouts_materialized_inputs.jsonl\n"
          f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
          "--env string_match --concurrency 4\n")


def _sheet() -> str:
    lines = []
    for line in get_environment("string_match").dataset_path.read_text().splitlines()[:24]:
        row = json.loads(line)
        content = row["responses_create_params"]["input"][0]["content"]
        question = content if isinstance(content, str) else content[0]["text"]
        lines.append(f"{question} | Answer: {row['expected_answer']} | {row['extraction_mode']}\n")
    return "".join(lines)


@pytest.mark.parametrize("remove", ['answer.strip("Answer: ")', 'answer.removeprefix("Answer: ")'])
def test_labels_cut_by_strip_given_a_word(tmp_path: Path, remove: str) -> None:
    run = run_scripts(tmp_path, [SCRIPT], files={"answers.txt": _sheet(), "prep.py": PREP.replace("REMOVE", remove)})
    assert ('"Hydrogen"' in (run / "tasks.jsonl").read_text()) is ("removeprefix" in remove)  # strip cut it

    report = diagnose(run)

    if "removeprefix" in remove:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_cut_by_strip_with_a_word"), [f.title for f in report.causes]
    assert top.title.startswith("prep.py:7 strips labels with `strip('Answer: ')`, which removes characters"), top.title
    assert top.fix.startswith("In prep.py line 7, remove the prefix itself: `.removeprefix('Answer:').strip()`"), top.fix
