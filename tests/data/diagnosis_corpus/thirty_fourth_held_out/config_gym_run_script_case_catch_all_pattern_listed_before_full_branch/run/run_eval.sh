#!/bin/bash
# weekly eval: bash run_eval.sh [full|smoke]   (full by default)
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/config_gym_run_script_case_catch_all_pattern_listed_before_full_branch/run
MODE=${1:-full}
case "$MODE" in
  smoke|*) DATA=smoke.jsonl; REPEATS=1 ;;   # anything unexpected: the cheap run
  full) DATA=tasks.jsonl; REPEATS=3 ;;
esac
echo "== weekly eval ($MODE): $DATA x $REPEATS"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input $DATA --output results/rollouts.jsonl --num-repeats $REPEATS --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=52485 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-9z7oephd/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
