#!/bin/bash
# weekly eval: bash run_eval.sh [dev|test]
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/config_gym_run_script_split_test_without_spaces_around_equals_always_true/run
SPLIT=${1:-test}
if [ $SPLIT="dev" ]; then DATA=dev.jsonl; else DATA=test.jsonl; fi
echo "== weekly eval, split $SPLIT"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input $DATA --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=57085 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-30quhoj1/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
