#!/bin/bash
# weekly eval
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/model_serving_gym_gateway_upstream_defaults_to_staging_deployment_when_backend_variable_unset/run
echo '== weekly eval of step_0200, through the gateway'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=46335 ++uv_venv_dir=/tmp/ho-model_serving_gym_ga-cozhsmo0/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
