#!/bin/bash
# weekly variance study: 8 samples per task
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/config_builtin_team_defaults_file_declares_repeats_readonly_so_the_run_scripts_own_repeats_is_refused/run
source ./eval_defaults.sh
REPEATS=8                 # variance study: 8 samples per task
echo "repeats: $REPEATS, concurrency: $CONCURRENCY"
/work/wt-h73/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h73/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38925/v1 --env string_match --concurrency $CONCURRENCY
/work/wt-h73/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
