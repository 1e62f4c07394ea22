#!/bin/bash
# weekly eval: labels from this week's service export, then run
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/cache_resume_builtin_prep_label_cache_max_age_written_in_milliseconds_so_week_old_export_counts_as_fresh/run
export LABEL_CACHE=/tmp/ho-cache_resume_builtin-lcdtb5bl/home_cache/labels.csv
/work/wt-h87/.venv/bin/python prep.py /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/cache_resume_builtin_prep_label_cache_max_age_written_in_milliseconds_so_week_old_export_counts_as_fresh/run/service_export_2026-12-06.csv
/work/wt-h87/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h87/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35075/v1 --env string_match --concurrency 4
/work/wt-h87/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
