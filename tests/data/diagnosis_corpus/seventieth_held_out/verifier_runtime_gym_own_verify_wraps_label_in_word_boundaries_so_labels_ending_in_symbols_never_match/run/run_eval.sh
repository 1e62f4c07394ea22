#!/bin/bash
# weekly eval with our whole_word_match server
cd /work/wt-h70/tests/data/diagnosis_corpus/seventieth_held_out/verifier_runtime_gym_own_verify_wraps_label_in_word_boundaries_so_labels_ending_in_symbols_never_match/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent whole_word_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-4_n8_soh/my_gym ++head_server.port=58687 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-4_n8_soh/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
