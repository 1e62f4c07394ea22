#!/bin/bash
# weekly eval of the labelling sheet
cd /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/cache_resume_builtin_prep_adds_sheet_rows_to_dataset_opened_in_append_mode_so_last_weeks_rows_stay/run
/work/wt-h75/.venv/bin/python prep.py labels.csv
/work/wt-h75/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h75/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41839/v1 --env string_match --concurrency 4
/work/wt-h75/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
