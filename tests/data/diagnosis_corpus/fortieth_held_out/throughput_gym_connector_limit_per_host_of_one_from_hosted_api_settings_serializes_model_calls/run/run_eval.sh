#!/bin/bash
# weekly eval
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/throughput_gym_connector_limit_per_host_of_one_from_hosted_api_settings_serializes_model_calls/run
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 8 ++route_failures_to_sidecar=true ++head_server.port=35003 ++uv_venv_dir=/tmp/ho-throughput_gym_conne-ex10yjm8/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
