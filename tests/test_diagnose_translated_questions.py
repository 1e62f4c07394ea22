"""A German split built from the translators' table of the questions, each task keeping the English quiz's label,
collected for real against a policy that answers in the question's language: the right answers whose names differ
between the languages (Wien, Rom, Prag) score 0. The diagnosis names the two languages and the English source of the
labels. With the labels translated too, nothing is found."""

import json
import subprocess
from pathlib import Path

import pytest
from launcher_support import wait_for
from script_support import CLI, SERVERS_START_WAIT_S, listening

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment
from gym_pipeline.host import free_loopback_port
from gym_pipeline.serving.checkpoints import demo_checkpoints

CAPITALS = [("Austria", "Österreich", "Vienna", "Wien"), ("Italy", "Italien", "Rome", "Rom"),
            ("Poland", "Polen", "Warsaw", "Warschau"), ("Czechia", "Tschechien", "Prague", "Prag"),
            ("Germany", "Deutschland", "Berlin", "Berlin"), ("France", "Frankreich", "Paris", "Paris")]
TRANSLATE = '''"""translate.py: the German split of our capitals quiz, questions from the translators' table."""
import json

table = json.load(open("questions_de.json"))
with open("quiz_en.jsonl") as src, open("tasks_de.jsonl", "w") as out:
    for line in src:
        q = json.loads(line)
        text = f"{table[q['question']]} End your response with 'Final answer: <answer>'."
        out.write(json.dumps({"responses_create_params": {"input": [{"role": "user", "content": text}]},
                              "expected_answer": ANSWER}, ensure_ascii=False) + "\\n")
'''


def _german_rows(labels: int) -> list[dict]:
    """The German tasks, with the English (labels=2) or German (labels=3) capital as their expected_answer."""
    return [{"responses_create_params": {"input": [{"role": "user", "content": f"Was ist die Hauptstadt von {de}? "
                                                    "End your response with 'Final answer: <answer>'."}]},
             "expected_answer": row[labels]} for row in CAPITALS for de in [row[1]]]


@pytest.mark.parametrize("translated", [False, True])
def test_labels_kept_in_english_for_german_questions_are_named_with_their_source(tmp_path: Path, translated: bool):
    run = tmp_path / "run"
    (run / "logs").mkdir(parents=True)
    (run / "quiz_en.jsonl").write_text("".join(json.dumps({"question": f"What is the capital of {en}?", "answer": city})
                                               + "\n" for en, _, city, _ in CAPITALS))
    table = {f"What is the capital of {en}?": f"Was ist die Hauptstadt von {de}?" for en, de, _, _ in CAPITALS}
    (run / "questions_de.json").write_text(json.dumps(table, ensure_ascii=False, indent=1))
    if translated:
        (run / "answers_de.json").write_text(json.dumps({en: de for _, _, en, de in CAPITALS}, ensure_ascii=False))
    (run / "translate.py").write_text(TRANSLATE.replace(
        "ANSWER", "json.load(open('answers_de.json'))[q['answer']]" if translated else "q['answer']"))
    subprocess.run(["python3", "translate.py"], cwd=run, check=True, timeout=60)
    truth = tmp_path / "tasks_de_truth.jsonl"  # what the policy knows: the German answers
    truth.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in _german_rows(3)))
    checkpoint = demo_checkpoints(tmp_path / "checkpoints", 2, [type(get_environment("string_match"))(truth)])[-1]
    port = free_loopback_port()
    with (run / "logs" / "model_server.log").open("w") as log:
        server = subprocess.Popen([*CLI.split(), "serve-policy", "--checkpoint", str(checkpoint), "--port", str(port)],
                                  stdout=log, stderr=subprocess.STDOUT)
    try:
        assert wait_for(lambda: listening(port), SERVERS_START_WAIT_S)
        with (run / "logs" / "run_eval.log").open("w") as log:
            for step in ("materialize --input tasks_de.jsonl --num-repeats 3 --agent string_match_simple_agent "
                         "--output rollouts_materialized_inputs.jsonl",
                         f"collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url "
                         f"http://127.0.0.1:{port}/v1 --env string_match --concurrency 4",
                         "profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl"):
                subprocess.run([*CLI.split(), *step.split()], cwd=run, stdout=log, stderr=subprocess.STDOUT, check=True,
                               timeout=300)
    finally:
        server.terminate()
        server.wait(10)
    rows = [json.loads(line) for line in (run / "rollouts.jsonl").read_text().splitlines()]
    said_wien = [row["reward"] for row in rows if "Wien" in (row.get("extracted_answer") or "")]
    assert said_wien and set(said_wien) == ({1.0} if translated else {0.0})  # the German answer really scored so

    report = diagnose(run)

    if translated:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "labels_kept_from_the_source_language"), top.title
    assert top.title.startswith("The questions are in German, the labels in English")
    assert [line.file for line in top.evidence] == ["rollouts_materialized_inputs.jsonl", "quiz_en.jsonl"]
