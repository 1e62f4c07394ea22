#!/bin/bash
# weekly eval with the team's NeMo Gym install
GYM_VENV=/tmp/ho-infra_gym_cli_venv_m-q5c58dzk/shared/venvs/gym-0.7
export PATH=$GYM_VENV/bin:$PATH
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/infra_gym_cli_venv_moved_so_entry_script_shebang_points_at_old_path/run
echo "gym: $(command -v gym)"
gym env start --resources-server string_match --model-type vllm_model --model sim-policy --model-url http://127.0.0.1:38413/v1 --model-api-key dummy > logs/env_start.log 2>&1 &
ENV_PID=$!
sleep 5
gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4
gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
kill $ENV_PID 2>/dev/null
