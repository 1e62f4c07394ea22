#!/bin/bash
# weekly eval: prep the export, then run
cd /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/data_schema_builtin_review_tool_csv_export_guards_formula_injection_with_leading_apostrophe_so_signed_labels_read_quote_minus_40/run
/work/h105/.venv/bin/python prep.py
/work/h105/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h105/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34371/v1 --env string_match --concurrency 4
/work/h105/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
