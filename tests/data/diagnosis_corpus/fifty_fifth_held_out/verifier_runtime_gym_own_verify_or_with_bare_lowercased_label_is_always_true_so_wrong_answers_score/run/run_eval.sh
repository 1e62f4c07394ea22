#!/bin/bash
# weekly eval with our label_match server
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/verifier_runtime_gym_own_verify_or_with_bare_lowercased_label_is_always_true_so_wrong_answers_score/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent label_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-f_5p9uwk/my_gym ++head_server.port=42539 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-f_5p9uwk/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
