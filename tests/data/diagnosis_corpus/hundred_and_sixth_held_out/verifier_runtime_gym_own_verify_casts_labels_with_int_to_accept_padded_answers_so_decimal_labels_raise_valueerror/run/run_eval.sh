#!/bin/bash
# weekly eval with our quiz_int server
cd /work/h106/tests/data/diagnosis_corpus/hundred_and_sixth_held_out/verifier_runtime_gym_own_verify_casts_labels_with_int_to_accept_padded_answers_so_decimal_labels_raise_valueerror/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_int_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-bwjsdu32/my_gym ++head_server.port=36973 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-bwjsdu32/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
