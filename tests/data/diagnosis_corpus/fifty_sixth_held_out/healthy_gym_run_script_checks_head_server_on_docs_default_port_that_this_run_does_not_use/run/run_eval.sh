#!/bin/bash
# weekly eval
cd /work/wt-h56/tests/data/diagnosis_corpus/fifty_sixth_held_out/healthy_gym_run_script_checks_head_server_on_docs_default_port_that_this_run_does_not_use/run
echo '== Gym servers (head server, docs default port)'
curl -sS --max-time 5 http://127.0.0.1:11000/server_instances || echo 'could not list the servers'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve  --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=34285 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-umeiqlil/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
