#!/bin/bash
# weekly eval: prep the answer key, then run
cd /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/data_schema_builtin_prep_normalises_numeric_answers_with_percent_g_which_writes_seven_digit_labels_in_exponent_notation/run
/work/h107/.venv/bin/python prep.py
/work/h107/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h107/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34721/v1 --env string_match --concurrency 4
/work/h107/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
