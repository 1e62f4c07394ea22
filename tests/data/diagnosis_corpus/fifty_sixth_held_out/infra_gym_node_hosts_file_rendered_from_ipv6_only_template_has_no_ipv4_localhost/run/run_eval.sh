#!/bin/bash
# weekly eval
cd /work/wt-h56/tests/data/diagnosis_corpus/fifty_sixth_held_out/infra_gym_node_hosts_file_rendered_from_ipv6_only_template_has_no_ipv4_localhost/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve  --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=41709 ++uv_venv_dir=/tmp/ho-infra_gym_node_hosts-183nic4b/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
