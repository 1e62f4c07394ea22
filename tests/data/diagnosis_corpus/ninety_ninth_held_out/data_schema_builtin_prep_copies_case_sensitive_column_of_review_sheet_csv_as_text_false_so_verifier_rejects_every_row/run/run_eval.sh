#!/bin/bash
# weekly eval: prep the sheet, then run
cd /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/data_schema_builtin_prep_copies_case_sensitive_column_of_review_sheet_csv_as_text_false_so_verifier_rejects_every_row/run
/work/h99/.venv/bin/python prep.py
/work/h99/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h99/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39675/v1 --env string_match --concurrency 4
/work/h99/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
