#!/bin/bash
# weekly eval with our quiz_num server
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/verifier_runtime_gym_own_verify_compares_answers_as_decimal_so_word_answers_raise_invalidoperation/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_num_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-_z7gie9e/my_gym ++head_server.port=39443 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-_z7gie9e/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
