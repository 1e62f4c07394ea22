#!/bin/bash
# weekly eval with our quiz_partial server
cd /work/h110/tests/data/diagnosis_corpus/hundred_and_tenth_held_out/verifier_runtime_gym_own_verify_gives_relative_error_partial_credit_dividing_by_the_label_so_zero_answers_raise_zerodivisionerror/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_partial_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-377jphiv/my_gym ++head_server.port=56449 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-377jphiv/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
