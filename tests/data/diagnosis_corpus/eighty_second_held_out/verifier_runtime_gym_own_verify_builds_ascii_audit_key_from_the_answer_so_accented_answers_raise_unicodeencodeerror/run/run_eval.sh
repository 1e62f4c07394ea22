#!/bin/bash
# weekly geography eval with our geo_match server
cd /work/wt-h82/tests/data/diagnosis_corpus/eighty_second_held_out/verifier_runtime_gym_own_verify_builds_ascii_audit_key_from_the_answer_so_accented_answers_raise_unicodeencodeerror/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent geo_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-0r6m2xgp/my_gym ++head_server.port=38927 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-0r6m2xgp/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
