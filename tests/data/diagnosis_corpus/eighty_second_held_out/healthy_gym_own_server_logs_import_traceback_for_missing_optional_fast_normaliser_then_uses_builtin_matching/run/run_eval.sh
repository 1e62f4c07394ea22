#!/bin/bash
# weekly quiz eval with our quiz_match server
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/healthy_gym_own_server_logs_import_traceback_for_missing_optional_fast_normaliser_then_uses_builtin_matching/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-xrwb6u16/my_gym ++head_server.port=48891 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-xrwb6u16/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
