#!/bin/bash
# weekly eval with our qa_eval server
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/verifier_runtime_gym_own_verify_keeps_minus_one_wrong_answer_penalty_of_rl_reward_shaping_in_the_eval_server/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent qa_eval_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-verifier_runtime_gym-zwxkvfkh/my_gym ++head_server.port=43695 ++uv_venv_dir=/tmp/ho-verifier_runtime_gym-zwxkvfkh/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
