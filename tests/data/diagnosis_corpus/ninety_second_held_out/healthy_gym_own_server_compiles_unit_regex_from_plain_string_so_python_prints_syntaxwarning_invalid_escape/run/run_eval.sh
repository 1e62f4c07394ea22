#!/bin/bash
# weekly eval with our quiz_units server
cd /work/h92/tests/data/diagnosis_corpus/ninety_second_held_out/healthy_gym_own_server_compiles_unit_regex_from_plain_string_so_python_prints_syntaxwarning_invalid_escape/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_units_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-0was5a1s/my_gym ++head_server.port=59255 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-0was5a1s/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
