#!/bin/bash
# weekly eval
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/config_builtin_sourced_settings_file_ends_with_exit_so_run_script_stops_there/run
source eval_settings.sh
echo "== weekly eval of $EVAL_DATA"
/work/wt-h42/.venv/bin/gym-pipeline materialize --input $EVAL_DATA --num-repeats $EVAL_REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h42/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36249/v1 --env string_match --concurrency $EVAL_CONCURRENCY
/work/wt-h42/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
