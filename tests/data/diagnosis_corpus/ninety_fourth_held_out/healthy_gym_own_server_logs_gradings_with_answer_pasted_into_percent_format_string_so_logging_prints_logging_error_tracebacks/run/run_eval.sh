#!/bin/bash
# weekly eval with our quiz_pct server
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/healthy_gym_own_server_logs_gradings_with_answer_pasted_into_percent_format_string_so_logging_prints_logging_error_tracebacks/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_pct_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-1ejn9tkf/my_gym ++head_server.port=39735 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-1ejn9tkf/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
