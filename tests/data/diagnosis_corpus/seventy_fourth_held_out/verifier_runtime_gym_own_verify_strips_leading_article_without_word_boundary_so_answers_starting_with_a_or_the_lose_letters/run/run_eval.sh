#!/bin/bash
# weekly eval with our qa_match server
cd /work/wt-h74/tests/data/diagnosis_corpus/seventy_fourth_held_out/verifier_runtime_gym_own_verify_strips_leading_article_without_word_boundary_so_answers_starting_with_a_or_the_lose_letters/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent qa_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-jy3cw_lt/my_gym ++head_server.port=38521 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-jy3cw_lt/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
