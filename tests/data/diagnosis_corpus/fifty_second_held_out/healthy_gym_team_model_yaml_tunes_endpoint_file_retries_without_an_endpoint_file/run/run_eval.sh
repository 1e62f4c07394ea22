#!/bin/bash
# weekly eval
cd /work/wt-h52/tests/data/diagnosis_corpus/held_out/healthy_gym_team_model_yaml_tunes_endpoint_file_retries_without_an_endpoint_file/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=50251 ++uv_venv_dir=/tmp/ho-healthy_gym_team_mod-lw3cv6qd/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
