#!/bin/bash
# weekly eval with our quiz_patterns server
cd /work/h96/tests/data/diagnosis_corpus/ninety_sixth_held_out/verifier_runtime_gym_own_verify_uses_every_label_as_regex_pattern_in_re_fullmatch_so_labels_with_parentheses_and_dollar_never_match/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_patterns_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-kzlkv6fj/my_gym ++head_server.port=58361 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-kzlkv6fj/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
