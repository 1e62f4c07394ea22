#!/bin/bash
# weekly eval with our quiz_num server
cd /work/h100/tests/data/diagnosis_corpus/hundredth_held_out/verifier_runtime_gym_own_verify_rounds_numeric_answers_to_integers_before_comparing_so_whole_number_guesses_of_decimals_score/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_num_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-5i5amsvh/my_gym ++head_server.port=36915 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-5i5amsvh/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
