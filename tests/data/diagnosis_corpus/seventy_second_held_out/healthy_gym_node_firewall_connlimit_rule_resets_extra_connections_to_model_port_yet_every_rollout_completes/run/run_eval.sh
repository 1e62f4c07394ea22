#!/bin/bash
# weekly eval
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/healthy_gym_node_firewall_connlimit_rule_resets_extra_connections_to_model_port_yet_every_rollout_completes/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 8 ++route_failures_to_sidecar=true ++head_server.port=53495 ++uv_venv_dir=/tmp/ho-healthy_gym_node_fir-j315k31v/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
iptables -L INPUT -v -n
