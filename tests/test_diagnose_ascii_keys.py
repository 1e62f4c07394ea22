"""A preparation that keys its rows by `label.encode("ascii")` (a dedup table's ASCII key column), run for real on
labels with accents: it raises UnicodeEncodeError. The process's encoding is UTF-8; the code asked for ASCII, so the
diagnosis names the code's line (data), not the locale (infra). With `errors="replace"`, every row is written and
the run is healthy."""

from __future__ import annotations

import sys

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

LABELS = {"What is the capital of Japan?": "Tokyo", "What is the capital of Iceland?": "Reykjavík",
          "Which city is the largest in Brazil?": "São Paulo", "What is the capital of Peru?": "Lima"}
PREP = """import json

# prep.py: the answer sheet -> data.jsonl, one row per answer (the dedup table's key column is ASCII)
seen = set()
with open("answers.jsonl") as sheet, open("data.jsonl", "w") as out:
    for line in sheet:
        row = json.loads(line)
        key = row["expected_answer"].lower().encode(ENCODING)
        if key not in seen:
            seen.add(key)
            out.write(json.dumps(row) + "\\n")
"""


@pytest.mark.parametrize("encoding", ['"ascii"', '"ascii", errors="replace"'])
def test_a_preparation_encoding_labels_to_ascii_itself_is_named_not_the_locale(tmp_path, encoding: str) -> None:
    rows = [{"responses_create_params": {"input": [{"role": "user", "content": f"{question} End your response with "
                                                    "'Final answer: <answer>'."}]}, "expected_answer": answer}
            for question, answer in LABELS.items()]
    answers = "".join(__import__("json").dumps(row) + "\n" for row in rows)
    run = run_scripts(tmp_path, [f"set -e\n{sys.executable} prep.py\n" + MATERIALIZE
                                 + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                                 "--model-url URL --env string_match\n"],
                      rows=rows, files={"prep.py": PREP.replace("ENCODING", encoding), "answers.jsonl": answers})

    report = diagnose(run)

    if "replace" in encoding:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    assert "UnicodeEncodeError: 'ascii' codec can't encode" in (run / "logs" / "run_eval_0.log").read_text()
    top = report.causes[0]
    assert top.category == "data_schema", [f.title for f in report.causes]
    assert "the code itself encodes the text to ASCII (`key = row[\"expected_answer\"].lower().encode(\"ascii\")`)" \
        in top.cause, top.cause
