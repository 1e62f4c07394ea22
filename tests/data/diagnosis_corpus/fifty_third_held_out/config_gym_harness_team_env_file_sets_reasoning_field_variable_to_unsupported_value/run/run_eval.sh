#!/bin/bash
# weekly eval
cd /work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/config_gym_harness_team_env_file_sets_reasoning_field_variable_to_unsupported_value/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=47257 ++uv_venv_dir=/tmp/ho-config_gym_harness_t-x3mgu6es/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
