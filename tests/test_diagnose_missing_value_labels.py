"""A prep script whose label fallback is written with `or`, run for real: the review tool's export gives numeric
answers as JSON numbers, and `rec.get("answer") or rec.get("legacy_answer")` takes the answer 0 for missing, so those
rows get the label 'None' while every command exits 0. The diagnosis names the fallback line and the `is None` test
(data/schema). The twin tests `is None` and stays healthy."""

import json
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

PREP = '''"""prep.py: the review tool's export.json -> tasks.jsonl."""
import json

with open("export.json") as f:
    records = json.load(f)
with open("tasks.jsonl", "w") as out:
    for rec in records:
        # exports before v3 kept the label under legacy_answer
        label = {fallback}
        out.write(json.dumps({{"responses_create_params": {{"input": [{{"role": "user", "content": rec["question"]}}]}},
                              "expected_answer": str(label), "extraction_mode": rec["mode"]}}) + "\\n")
'''
FALLBACKS = {"or": 'rec.get("answer") or rec.get("legacy_answer")',
             "is None": 'rec["answer"] if rec.get("answer") is not None else rec.get("legacy_answer")'}
SCRIPT = (f"python3 prep.py\n{CLI} materialize --input tasks.jsonl --num-repeats 2 --agent string_match_simple_agent "
          "--output rollouts_materialized_inputs.jsonl\n"
          f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
          "--env string_match --concurrency 4\n")


def _export() -> str:
    records = []
    for index, line in enumerate(get_environment("string_match").dataset_path.read_text().splitlines()[:8]):
        row = json.loads(line)
        content = row["responses_create_params"]["input"][0]["content"]
        records.append({"question": content if isinstance(content, str) else content[0]["text"],
                        "answer": 0 if index in (1, 4) else row["expected_answer"], "legacy_answer": None,
                        "mode": row["extraction_mode"]})
    return json.dumps(records, indent=1)


@pytest.mark.parametrize("fallback", ["or", "is None"])
def test_label_fallback_with_or_writes_none_for_the_answer_zero(tmp_path: Path, fallback: str) -> None:
    files = {"export.json": _export(), "prep.py": PREP.format(fallback=FALLBACKS[fallback])}
    run = run_scripts(tmp_path, [SCRIPT], files=files)
    assert (run / "rollouts.jsonl").is_file()

    report = diagnose(run)

    if fallback == "is None":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_that_are_a_missing_value"), [f.title for f in report.causes]
    assert top.title.startswith("2 tasks of 8 have the label 'None'"), top.title
    assert top.fix.startswith('In prep.py line 9 (`label = rec.get("answer") or rec.get("legacy_answer")`), fall back '
                              'only when the value is missing'), top.fix
