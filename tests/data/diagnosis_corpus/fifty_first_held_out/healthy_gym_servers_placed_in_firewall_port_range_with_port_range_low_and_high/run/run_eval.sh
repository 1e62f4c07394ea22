#!/bin/bash
# weekly eval
cd /work/wt-h51/tests/data/diagnosis_corpus/held_out/healthy_gym_servers_placed_in_firewall_port_range_with_port_range_low_and_high/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=51117 ++uv_venv_dir=/tmp/ho-healthy_gym_servers_-4uh85_5v/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
