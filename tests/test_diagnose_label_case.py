"""Labels whose case carries meaning (NaCl, pH, mRNA, eBay) re-cased by the user's preparation script on rows
compared case by case: the model's right answers score 0. Run for real: prep_data.py writes the data, bash runs the
built-in engine against the simulated policy, which knows the right answers. The twin trims the labels and keeps
their case."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

LABELS = {"What is the chemical formula of table salt?": "NaCl",
          "Which scale measures how acidic a solution is?": "pH",
          "Which molecule carries a gene's code to the ribosome?": "mRNA",
          "Which online auction site was founded in 1995?": "eBay",
          "Which gas do plants take in from the air?": "CO2",
          "What is the capital of France?": "Paris"}
ROWS = [{"responses_create_params": {"input": [{"role": "user", "content": f"{question} End your response with "
                                                                     "'Final answer: <answer>'."}]},
         "expected_answer": answer, "extraction_mode": "final_answer", "case_sensitive": True}
        for question, answer in LABELS.items()]


@pytest.mark.parametrize("tidy", [".strip().capitalize()", ".strip()"])
def test_labels_re_cased_by_the_preparation_script(tmp_path: Path, tidy: str) -> None:
    prep = ("import json, sys\nrows = [json.loads(line) for line in open(sys.argv[1])]\n"
            "with open(sys.argv[2], 'w') as out:\n    for row in rows:\n"
            f"        row['expected_answer'] = str(row['expected_answer']){tidy}  # tidy the review tool's labels\n"
            "        out.write(json.dumps(row) + '\\n')\n")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "prep_data.py").write_text(prep)
    script = (f"python3 prep_data.py data.jsonl tasks.jsonl\n{CLI} materialize --input tasks.jsonl --num-repeats 3 "
              "--agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              f"--env string_match --concurrency 6\n{CLI} profile --inputs rollouts_materialized_inputs.jsonl "
              "--rollouts rollouts.jsonl\n")
    run = run_scripts(tmp_path, [script], checkpoint_of_script=[1], rows=ROWS)

    report = diagnose(run)

    if tidy == ".strip()":
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "expected_answers_case_lost")
    assert top.title.endswith(" answers scored 0 only for their case: the expected answers lost theirs "
                              "(prep_data.py:5)"), top.title
    assert [line.where for line in top.evidence][1:] == ["prep_data.py:5"]
    assert "(drop its `.capitalize()`: trim them, keep their case)" in top.fix
