#!/bin/bash
# run_eval.sh [--smoke] [DATASET]: the weekly eval (DATASET defaults to tasks.jsonl)
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/config_gym_run_script_shifts_its_arguments_even_without_the_optional_flag_so_dataset_falls_to_default/run
[ "$1" = "--smoke" ] && SMOKE=1; shift
DATA=${1:-tasks.jsonl}
echo "== weekly eval of $DATA"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input $DATA --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=38927 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-l20wvdoq/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
