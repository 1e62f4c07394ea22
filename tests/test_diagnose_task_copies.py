"""Rows written once per sample: a prep script from a harness that sampled once per row copies every question k
times (with a `sample_id`), and the run asks Gym for one repeat. Gym makes each copy a task, so the profile counts k
times the tasks, each with one rollout. The same data written once, with k repeats, is a whole run."""
from __future__ import annotations

from pathlib import Path

import pytest
from script_support import CLI, run_scripts

from gym_pipeline.diagnose import diagnose

PREP = """import json

SAMPLES = 3  # the old harness sampled each row once: one row per sample
with open('tasks.jsonl', 'w') as out:
    for line in open('data.jsonl'):
        row = json.loads(line)
        for sample in range(SAMPLES if PER_SAMPLE else 1):
            out.write(json.dumps({**row, 'sample_id': sample} if PER_SAMPLE else row) + '\\n')
"""


def _stages(repeats: int) -> str:
    return (f"{CLI} materialize --input tasks.jsonl --num-repeats {repeats} --agent string_match_simple_agent "
            f"--output rollouts_materialized_inputs.jsonl\n{CLI} collect --inputs rollouts_materialized_inputs.jsonl "
            "--output rollouts.jsonl --model-url URL --env string_match --concurrency 6\n"
            f"{CLI} profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl\n")


@pytest.mark.parametrize("per_sample", [True, False])
def test_questions_written_once_per_sample_are_counted_as_tasks_of_one_rollout(tmp_path: Path,
                                                                               per_sample: bool) -> None:
    prep = PREP.replace("PER_SAMPLE", str(per_sample))
    run = run_scripts(tmp_path, ["python3 prep_data.py\n" + _stages(1 if per_sample else 3)],
                      checkpoint_of_script=[1], files={"prep_data.py": prep})

    report = diagnose(run)

    if not per_sample:
        assert report.category == "healthy", [f.title for f in report.causes]
        return
    top = report.causes[0]
    assert (top.category, top.id) == ("data_schema", "questions_written_once_per_sample"), top.title
    assert top.title == ("Each of 10 questions is 3 tasks: the data writes every row 3 times (differing in "
                         "`sample_id`), so the profile counts 30 tasks of 1 rollout")
    assert [line.where for line in top.evidence] == ["rollouts_materialized_inputs.jsonl:1",
                                                     "rollouts_materialized_inputs.jsonl:2", "prep_data.py:8"]
    assert "`--num-repeats 3`" in top.fix and "prep_data.py:8" in top.fix
