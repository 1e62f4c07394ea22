#!/bin/bash
# weekly eval with our quiz_units server
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/verifier_runtime_gym_own_verify_strips_units_with_regex_keeping_digits_and_dot_so_minus_sign_is_dropped_and_negative_answers_score_zero/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_units_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-dmwqbdi4/my_gym ++head_server.port=41039 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-dmwqbdi4/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
