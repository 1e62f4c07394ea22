#!/bin/bash
# weekly eval of the answers sheet
cd /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/data_schema_builtin_prep_parses_every_answer_cell_with_literal_eval_so_hex_and_octal_labels_become_decimal/run
/work/wt-h77/.venv/bin/python prep.py
/work/wt-h77/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h77/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41321/v1 --env string_match --concurrency 4
/work/wt-h77/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
