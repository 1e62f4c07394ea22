#!/bin/bash
# weekly eval: prep this week's sheet, materialize, collect, profile
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/data_schema_builtin_prep_unpacks_sheet_rows_with_star_rest_then_answer_so_the_hint_column_added_last_becomes_the_label/run
/work/h96/.venv/bin/python prep.py sheet_2026-W49.json string_match.jsonl
/work/h96/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h96/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39227/v1 --env string_match --concurrency 4
/work/h96/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
