#!/bin/bash
# weekly eval (string_match.jsonl is kept current by prep_watch.py)
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/cache_resume_builtin_prep_watcher_left_running_since_last_week_keeps_answer_key_it_loaded_at_start/run
echo "dataset: $(wc -l < string_match.jsonl) rows, written $(date -r string_match.jsonl +%T)"
/work/wt-h73/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h73/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34753/v1 --env string_match --concurrency 4
/work/wt-h73/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
