#!/bin/bash
# weekly eval of the labelling sheet
cd /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/cache_resume_builtin_prep_shelve_cache_keyed_by_sheet_path_serves_last_weeks_parsed_rows/run
/work/wt-h64/.venv/bin/python prep.py
/work/wt-h64/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h64/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38379/v1 --env string_match --concurrency 4
/work/wt-h64/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
