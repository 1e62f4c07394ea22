#!/bin/bash
# weekly eval with our quiz_fold server
cd /work/h102/tests/data/diagnosis_corpus/hundred_and_second_held_out/verifier_runtime_gym_own_verify_folds_accents_with_nfkd_then_strict_ascii_encode_which_raises_on_every_accented_answer/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_fold_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-bj0zt6bk/my_gym ++head_server.port=43963 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-bj0zt6bk/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
