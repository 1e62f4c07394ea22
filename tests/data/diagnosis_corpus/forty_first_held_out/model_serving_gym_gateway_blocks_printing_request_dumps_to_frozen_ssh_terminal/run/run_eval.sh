#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/model_serving_gym_gateway_blocks_printing_request_dumps_to_frozen_ssh_terminal/run
echo '== weekly eval, through the team gateway'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=47107 ++uv_venv_dir=/tmp/ho-model_serving_gym_ga-6l35iu0z/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
