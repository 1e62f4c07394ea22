#!/bin/bash
# weekly eval of the mixed quiz with our list_match server
cd /work/wt-h76/tests/data/diagnosis_corpus/seventy_sixth_held_out/verifier_runtime_gym_own_verify_compares_sets_of_characters_so_wrong_numbers_with_the_same_digits_score/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent list_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-php3_bmm/my_gym ++head_server.port=49735 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-php3_bmm/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
