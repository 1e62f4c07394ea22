#!/bin/bash
# weekly eval (arith_plus): prep the answer key, materialize, collect, profile
cd /work/h104/tests/data/diagnosis_corpus/hundred_and_fourth_held_out/data_schema_builtin_answer_key_from_fixed_width_db_report_zero_pads_numeric_answers_to_three_digits/run
/work/h104/.venv/bin/python prep.py
/work/h104/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h104/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38535/v1 --env string_match --concurrency 4
/work/h104/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
