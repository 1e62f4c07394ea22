#!/bin/bash
# weekly eval
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/model_serving_gym_gateway_coalesces_identical_in_flight_requests_into_one_reply/run
echo '== weekly eval, through the team gateway'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 6 ++route_failures_to_sidecar=true ++head_server.port=58305 ++uv_venv_dir=/tmp/ho-model_serving_gym_ga-4w_m2bvo/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
