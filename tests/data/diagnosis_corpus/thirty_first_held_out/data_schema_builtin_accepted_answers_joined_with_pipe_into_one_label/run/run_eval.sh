#!/bin/bash
# eval of the question bank
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/data_schema_builtin_accepted_answers_joined_with_pipe_into_one_label/run
python3 prep_data.py question_bank.json tasks.jsonl
/work/wt-h31/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h31/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37979/v1 --env string_match --concurrency 4
/work/wt-h31/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
