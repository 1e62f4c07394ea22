"""The options of multiple-choice rows shuffled by the user's script (to undo a position bias), the expected letters
left as they were: the letters point at other options and right answers score 0. Run for real: shuffle_options.py
writes the data, bash runs the built-in engine against the simulated policy, which knows the right option of each
shuffled question; the twin's script moves `expected_answer` with its option."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose
from gym_pipeline.environments import get_environment

SHUFFLE = '''"""Shuffle the options of every mcqa row (the model picked 'A' too often in the old order)."""
import json
import random
import sys

with open(sys.argv[1]) as handle, open(sys.argv[2], "w") as out:
    for index, line in enumerate(handle):
        row = json.loads(line)
        texts = [next(iter(option.values())) for option in row["options"]]
        right = dict(next(iter(option.items())) for option in row["options"])[row["expected_answer"]]
        random.Random(index).shuffle(texts)
        letters = "ABCDEFGH"[:len(texts)]
        row["options"] = [{letter: text} for letter, text in zip(letters, texts)]
# REMAP
        message = row["responses_create_params"]["input"][0]["content"][0]
        question, _, instruction = message["text"].split("\\n\\n")
        block = "\\n".join(f"{letter}) {text}" for letter, text in zip(letters, texts))
        message["text"] = f"{question}\\n\\n{block}\\n\\n{instruction}"
        out.write(json.dumps(row) + "\\n")
'''
REMAP = '        row["expected_answer"] = letters[texts.index(right)]\n'


@pytest.mark.parametrize("remapped", [False, True])
def test_options_shuffled_without_moving_their_expected_letters(tmp_path: Path, remapped: bool) -> None:
    (tmp_path / "run").mkdir()
    source = tmp_path / "run" / "mcqa_source.jsonl"
    source.write_text("".join(get_environment("mcqa").dataset_path.read_text().splitlines(keepends=True)[:10]))
    (tmp_path / "run" / "shuffle_options.py").write_text(SHUFFLE.replace("# REMAP\n", REMAP if remapped else ""))
    # what the model knows: the right option of each shuffled question
    (tmp_path / "truth.py").write_text(SHUFFLE.replace("# REMAP\n", REMAP))
    subprocess.run([sys.executable, tmp_path / "truth.py", source, tmp_path / "truth.jsonl"], check=True)
    truth = [json.loads(line) for line in (tmp_path / "truth.jsonl").read_text().splitlines()]
    script = (f"python3 shuffle_options.py mcqa_source.jsonl tasks.jsonl\n{CLI} materialize --input tasks.jsonl "
              "--num-repeats 3 --agent mcqa_simple_agent --output rollouts_materialized_inputs.jsonl\n"
              f"{CLI} collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url URL "
              f"--env mcqa --concurrency 6\n{CLI} profile --inputs rollouts_materialized_inputs.jsonl "
              "--rollouts rollouts.jsonl\n")
    run = run_scripts(tmp_path, [script], checkpoint_of_script=[2], rows=truth, env="mcqa")

    report = diagnose(run)

    if remapped:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "options_shuffled_without_their_answers")
    assert top.title.startswith("shuffle_options.py:11 shuffles the rows' options and leaves their `expected_answer`: ")
    assert "move `expected_answer` with its option" in top.fix
