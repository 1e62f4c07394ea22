#!/bin/bash
# weekly eval: prep the sheet, materialize, collect, profile
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/data_schema_builtin_prep_strips_sheets_two_digit_zero_padding_with_lstrip_zero_so_answer_00_becomes_empty_label/run
/work/h112/.venv/bin/python prep.py
/work/h112/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h112/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34831/v1 --env string_match --concurrency 4
/work/h112/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
