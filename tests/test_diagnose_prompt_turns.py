"""A few-shot data script, run for real before a collection against the simulated policy: it gives the turns their
roles by position and counts an instruction line as the first turn, so every question (the one asked last too)
becomes an assistant turn. The model answers the last user turn, an example's answer, and every rollout scores 0.
Giving each turn its role by what it is keeps the question the last user turn, and the run is healthy."""

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

FEW_SHOT = '''import json

SHOTS = [("What is 2 plus 2?", "Final answer: 4"), ("What is 10 minus 3?", "Final answer: 7")]


def message(index, text):
    role = {role}
    kind = "input_text" if role == "user" else "output_text"
    return {{"role": role, "type": "message", "content": [{{"type": kind, "text": text}}]}}


with open("data.jsonl") as rows, open("few_shot.jsonl", "w") as out:
    for line in rows:
        row = json.loads(line)
        question = row["responses_create_params"]["input"][-1]["content"][0]["text"]
        turns = ["Solve each problem."] + [text for shot in SHOTS for text in shot] + [question]
        row["responses_create_params"]["input"] = [message(i, text) for i, text in enumerate(turns)]
        out.write(json.dumps(row) + "\\n")
'''
BY_POSITION = '"user" if index % 2 == 0 else "assistant"  # turns alternate: user, assistant, user, ...'
BY_KIND = '"assistant" if text.startswith("Final answer") else "user"'


@pytest.mark.parametrize("role", [BY_POSITION, BY_KIND], ids=["by_position", "by_kind"])
def test_few_shot_roles_given_by_position_put_the_question_in_an_assistant_turn(tmp_path: Path, role: str) -> None:
    script = ("python3 few_shot.py\n"
              f"{CLI} materialize --input few_shot.jsonl --num-repeats 2 --agent string_match_simple_agent "
              "--output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              "--env string_match --concurrency 4\n")
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "few_shot.py").write_text(FEW_SHOT.format(role=role))
    run = run_scripts(tmp_path, [script])

    report = diagnose(run)

    if role == BY_KIND:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "prompts_ending_with_an_assistant_turn")
    assert top.title == "20 of 20 prompts end with an assistant turn: the question is not the last user message"
    assert [line.where for line in top.evidence] == ["rollouts_materialized_inputs.jsonl:1", "few_shot.py:7"]
    assert top.fix.startswith("In few_shot.py:7, give each turn its role by what it is, not by its position")
