#!/bin/bash
# weekly eval: prep the sheet, then run
cd /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/data_schema_builtin_prep_rounds_numeric_labels_to_drop_spreadsheet_dot_zero_so_half_values_lose_their_fraction/run
/work/h97/.venv/bin/python prep.py
/work/h97/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h97/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37677/v1 --env string_match --concurrency 4
/work/h97/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
