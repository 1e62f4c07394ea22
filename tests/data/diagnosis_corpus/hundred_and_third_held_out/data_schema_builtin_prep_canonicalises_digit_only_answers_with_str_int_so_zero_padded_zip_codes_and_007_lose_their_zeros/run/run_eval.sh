#!/bin/bash
# weekly eval: prep the sheet, then run
cd /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/data_schema_builtin_prep_canonicalises_digit_only_answers_with_str_int_so_zero_padded_zip_codes_and_007_lose_their_zeros/run
/work/h103/.venv/bin/python prep.py
/work/h103/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h103/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40927/v1 --env string_match --concurrency 4
/work/h103/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
