#!/bin/bash
# weekly eval
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_optional_wandb_upload_without_wandb_installed/run
python3 -c "import wandb; wandb.init(project='weekly-eval')" || echo 'wandb not available: results are not uploaded'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=51627 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-sdeu77p4/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
