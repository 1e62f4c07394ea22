#!/bin/bash
# weekly eval
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_warms_page_cache_with_vmtouch_not_installed/run
vmtouch -t tasks.jsonl || echo '(page cache not warmed)'
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=36581 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-tbar09zt/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
