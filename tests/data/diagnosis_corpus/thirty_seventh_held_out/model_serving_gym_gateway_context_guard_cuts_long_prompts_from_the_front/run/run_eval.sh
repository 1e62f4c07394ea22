#!/bin/bash
# weekly eval
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/model_serving_gym_gateway_context_guard_cuts_long_prompts_from_the_front/run
echo '== weekly eval, through the gateway'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=60853 ++uv_venv_dir=/tmp/ho-model_serving_gym_ga-o2xvo5vx/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
