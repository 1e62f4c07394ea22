#!/bin/bash
# weekly eval: put this week's export in place, materialize, collect, profile
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/cache_resume_builtin_run_script_moves_this_weeks_export_folder_onto_existing_data_folder_with_mv_which_nests_it_inside/run
# this week's export replaces the data folder
mv export_2026-W49 data
echo "data folder: $(ls data)"
/work/h96/.venv/bin/gym-pipeline materialize --input data/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h96/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42783/v1 --env string_match --concurrency 4
/work/h96/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
