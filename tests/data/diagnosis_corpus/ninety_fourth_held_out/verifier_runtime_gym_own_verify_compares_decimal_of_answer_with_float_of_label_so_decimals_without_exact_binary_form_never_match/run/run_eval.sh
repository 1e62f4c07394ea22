#!/bin/bash
# weekly eval with our quiz_decimal server
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/verifier_runtime_gym_own_verify_compares_decimal_of_answer_with_float_of_label_so_decimals_without_exact_binary_form_never_match/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_decimal_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-yn0zpj3p/my_gym ++head_server.port=34077 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-yn0zpj3p/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
