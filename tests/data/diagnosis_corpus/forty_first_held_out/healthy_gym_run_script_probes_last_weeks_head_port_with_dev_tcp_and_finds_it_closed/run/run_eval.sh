#!/bin/bash
# weekly eval
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_probes_last_weeks_head_port_with_dev_tcp_and_finds_it_closed/run
echo '== is the head server of last week (default port 11000) gone?'
if (exec 3<>/dev/tcp/127.0.0.1/11000); then echo 'port 11000 still taken'; else echo 'port 11000 is free'; fi
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=40999 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-xuyaiuh4/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
