#!/bin/bash
# weekly eval with our qa_match server
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/verifier_runtime_gym_own_verify_drops_answers_longer_than_twelve_characters_by_a_guard_from_short_answer_benchmark/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent qa_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-ulw3e93a/my_gym ++head_server.port=33653 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-ulw3e93a/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
