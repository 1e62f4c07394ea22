#!/bin/bash
# weekly eval
cd /work/wt-h48/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_pings_package_index_from_offline_eval_node/run
echo '== weekly eval'
# can this node reach the package index? (when it cannot, the eval venv comes from the local mirror)
ping -c 1 -W 2 pypi.org || echo '(no route to pypi.org: offline eval node, packages from the mirror)'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=38119 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-10metsdt/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
