#!/bin/bash
# weekly eval
cd /work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/config_gym_team_model_yaml_takes_model_name_from_serving_launchers_variable_and_falls_back_to_production_name/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=48743 ++uv_venv_dir=/tmp/ho-config_gym_team_mode-ithm6t14/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
