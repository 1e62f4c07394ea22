#!/bin/bash
# weekly eval
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_checks_infiniband_links_with_ibstat_not_installed/run
ibstat || echo '(InfiniBand not checked)'
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=36945 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-nh0wzsku/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
