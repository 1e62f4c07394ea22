#!/bin/bash
# weekly capitals eval with our capital_match server
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/verifier_runtime_gym_own_verify_compares_with_hmac_compare_digest_which_refuses_non_ascii_strings/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent capital_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-em46akat/my_gym ++head_server.port=43495 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-em46akat/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
