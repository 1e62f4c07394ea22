#!/bin/bash
# weekly eval with our label_match server
cd /work/wt-h59/tests/data/diagnosis_corpus/fifty_ninth_held_out/config_gym_own_server_yaml_pins_port_8000_that_the_model_server_already_listens_on/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent label_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-config_gym_own_serve-quw2j4zl/my_gym ++head_server.port=46875 ++uv_venv_dir=/tmp/ho-config_gym_own_serve-quw2j4zl/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
