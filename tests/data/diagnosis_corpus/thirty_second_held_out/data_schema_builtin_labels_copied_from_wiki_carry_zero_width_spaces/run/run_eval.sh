#!/bin/bash
# eval of the question bank
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/data_schema_builtin_labels_copied_from_wiki_carry_zero_width_spaces/run
python3 prep_data.py question_bank.json tasks.jsonl
/work/wt-h32/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h32/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35367/v1 --env string_match --concurrency 4
/work/wt-h32/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
