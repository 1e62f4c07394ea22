#!/bin/bash
# weekly eval
cd /work/wt-h51/tests/data/diagnosis_corpus/held_out/config_gym_team_model_yaml_endpoint_file_rebinds_eval_to_training_jobs_served_checkpoint/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=45629 ++uv_venv_dir=/tmp/ho-config_gym_team_mode-hxe03o3z/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
