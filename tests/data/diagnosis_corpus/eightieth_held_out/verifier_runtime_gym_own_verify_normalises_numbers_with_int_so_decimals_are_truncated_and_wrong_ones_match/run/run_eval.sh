#!/bin/bash
# weekly eval of the arithmetic quiz with our number_match server
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/verifier_runtime_gym_own_verify_normalises_numbers_with_int_so_decimals_are_truncated_and_wrong_ones_match/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent number_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-5w75lacn/my_gym ++head_server.port=46187 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-5w75lacn/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
