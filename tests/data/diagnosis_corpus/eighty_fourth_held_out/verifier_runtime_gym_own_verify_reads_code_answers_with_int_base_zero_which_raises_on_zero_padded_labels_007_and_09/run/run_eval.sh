#!/bin/bash
# weekly codes quiz eval with our code_match server
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/verifier_runtime_gym_own_verify_reads_code_answers_with_int_base_zero_which_raises_on_zero_padded_labels_007_and_09/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent code_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-yf8_cmqj/my_gym ++head_server.port=42143 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-yf8_cmqj/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
