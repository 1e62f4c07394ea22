#!/bin/bash
# weekly eval: this week's export from ~/Downloads, prep, materialize, collect, profile
cd /work/wt-h90/tests/data/diagnosis_corpus/ninetieth_held_out/cache_resume_builtin_fixed_export_saved_by_browser_as_labels_1_csv_so_run_script_copies_last_weeks_labels_csv/run
ls -l /tmp/ho-cache_resume_builtin-jlsr7ydq/home/Downloads
cp /tmp/ho-cache_resume_builtin-jlsr7ydq/home/Downloads/labels.csv labels.csv
/work/wt-h90/.venv/bin/python prep.py
/work/wt-h90/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h90/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37849/v1 --env string_match --concurrency 4
/work/wt-h90/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
