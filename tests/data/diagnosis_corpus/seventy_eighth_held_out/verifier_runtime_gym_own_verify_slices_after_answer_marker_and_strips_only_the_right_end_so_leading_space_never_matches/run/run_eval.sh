#!/bin/bash
# weekly short-answer eval with our short_answer server
cd /work/wt-h78/tests/data/diagnosis_corpus/seventy_eighth_held_out/verifier_runtime_gym_own_verify_slices_after_answer_marker_and_strips_only_the_right_end_so_leading_space_never_matches/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent short_answer_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-t80rge14/my_gym ++head_server.port=58829 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-t80rge14/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
