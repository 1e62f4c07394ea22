#!/bin/bash
# weekly eval
cd /work/wt-h56/tests/data/diagnosis_corpus/fifty_sixth_held_out/verifier_runtime_gym_own_verify_calls_helper_method_defined_without_self_parameter/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --search-dir /tmp/ho-verifier_runtime_gym-0z9x4zc0/my_gym --agent key_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=44423 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-0z9x4zc0/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
