#!/bin/bash
# last week's run (step_0100), same script
cd /work/h100/tests/data/diagnosis_corpus/hundredth_held_out/cache_resume_builtin_weekly_report_takes_newest_results_folder_by_text_sort_of_day_first_dates_so_30_11_outranks_07_12/run
OUT=results/30-11-2026
mkdir -p $OUT && cd $OUT
/work/h100/.venv/bin/gym-pipeline materialize --input ../../string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h100/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33275/v1 --env string_match --concurrency 4
/work/h100/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
cd ../..
/work/h100/.venv/bin/python report.py
