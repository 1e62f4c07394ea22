#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/infra_gym_htb_bandwidth_cap_left_on_loopback_model_port_from_a_bandwidth_test/run
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=55445 ++uv_venv_dir=/tmp/ho-infra_gym_htb_bandwi-c8h73cxn/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
