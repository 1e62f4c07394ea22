#!/bin/bash
# weekly eval
cd /work/wt-h56/tests/data/diagnosis_corpus/fifty_sixth_held_out/healthy_gym_gateway_splits_replies_with_reasoning_parser_and_gym_keeps_reasoning_as_its_own_output_item/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve  --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=44443 ++uv_venv_dir=/tmp/ho-healthy_gym_gateway_-7dt1x9pc/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
