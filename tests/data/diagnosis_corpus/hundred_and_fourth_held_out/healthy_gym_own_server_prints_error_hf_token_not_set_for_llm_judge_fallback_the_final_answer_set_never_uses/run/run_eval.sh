#!/bin/bash
# weekly eval with our quiz_judge server
cd /work/h104/tests/data/diagnosis_corpus/hundred_and_fourth_held_out/healthy_gym_own_server_prints_error_hf_token_not_set_for_llm_judge_fallback_the_final_answer_set_never_uses/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_judge_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-wz81rz1x/my_gym ++head_server.port=51453 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-wz81rz1x/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
