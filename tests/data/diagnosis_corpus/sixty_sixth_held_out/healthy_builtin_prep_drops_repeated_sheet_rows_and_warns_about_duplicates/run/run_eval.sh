#!/bin/bash
# weekly eval of the labelling sheet
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/healthy_builtin_prep_drops_repeated_sheet_rows_and_warns_about_duplicates/run
/work/wt-h66/.venv/bin/python prep.py
/work/wt-h66/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h66/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40891/v1 --env string_match --concurrency 4
/work/wt-h66/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
