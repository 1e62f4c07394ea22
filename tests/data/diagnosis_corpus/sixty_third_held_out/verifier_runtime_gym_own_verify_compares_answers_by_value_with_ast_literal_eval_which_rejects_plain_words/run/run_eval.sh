#!/bin/bash
# weekly eval with our numeric_match server
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/verifier_runtime_gym_own_verify_compares_answers_by_value_with_ast_literal_eval_which_rejects_plain_words/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent numeric_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-gj8vc1dc/my_gym ++head_server.port=34937 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-gj8vc1dc/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
