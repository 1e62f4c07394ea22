#!/bin/bash
# weekly eval with our quiz_stop server
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/verifier_runtime_gym_own_verify_drops_trailing_full_stop_with_split_on_dot_so_decimal_answers_lose_their_fraction/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_stop_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-rqhdrtt9/my_gym ++head_server.port=59573 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-rqhdrtt9/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
