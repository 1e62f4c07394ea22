"""An answer sheet in YAML, turned into the data's rows by the user's prep: an answer written with a leading 0
(`0755`) and left unquoted is read by PyYAML as an octal number, and the label becomes 493. Run for real against the
simulated policy, which answers 0755: those tasks score 0, and the diagnosis names the sheet's line (data, not
settings). Quoted, the label stays `0755` and the run is healthy."""

from __future__ import annotations

import sys

import pytest
from script_support import CLI, MATERIALIZE, run_scripts

from gym_pipeline.diagnose import diagnose

MODES = {"rwxr-xr-x": "0755", "rw-r--r--": "0644", "rwx------": "0700", "rw-------": "0600"}
WORDS = {"the colour of a clear daytime sky": "blue", "the opposite of cold": "hot"}
PREP = ("import json\n\nimport yaml\n\n# prep.py: the answer sheet -> data.jsonl\n"
        "for entry in yaml.safe_load(open('answers.yaml')):\n"
        "    text = f\"{entry['question']} End your response with 'Final answer: <answer>'.\"\n"
        "    print(json.dumps({'responses_create_params': {'input': [{'role': 'user', 'content': text}]},\n"
        "                      'expected_answer': str(entry['answer'])}))\n")


def _question(what: str) -> str:
    return (f"Write the permission bits {what} as a four-digit octal mode." if what in MODES
            else f"Name {what} in one word.")


@pytest.mark.parametrize("quoted", [False, True])
def test_an_unquoted_zero_padded_answer_in_a_yaml_sheet_becomes_an_octal_label(tmp_path, quoted: bool) -> None:
    answers = {**MODES, **WORDS}
    rows = [{"responses_create_params": {"input": [{"role": "user", "content": f"{_question(what)} End your response "
                                                    "with 'Final answer: <answer>'."}]}, "expected_answer": answer}
            for what, answer in answers.items()]
    sheet = "".join(f"- question: {_question(what)}\n  answer: {f'{answer!r}' if quoted else answer}\n"
                    for what, answer in answers.items())
    run = run_scripts(tmp_path, [f"{sys.executable} prep.py > data.jsonl\n" + MATERIALIZE
                                 + f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl "
                                 "--model-url URL --env string_match\n"
                                 f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n"],
                      rows=rows, files={"prep.py": PREP, "answers.yaml": sheet})
    assert ('"expected_answer": "0755"' if quoted else '"expected_answer": "493"') in (run / "data.jsonl").read_text()

    report = diagnose(run)

    if quoted:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "octal_numbers_in_settings"), [f.title for f in report.causes]
    assert top.title == ("answers.yaml: `answer: 0755` reads as 493, not 755: YAML reads an integer with a leading 0 as "
                         "octal, and prep.py writes it into the data as a label")
    assert "`answer: \"0755\"`" in top.fix
