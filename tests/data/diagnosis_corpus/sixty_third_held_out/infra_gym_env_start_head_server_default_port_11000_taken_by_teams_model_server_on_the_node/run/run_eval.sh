#!/bin/bash
# weekly eval: start Gym's servers, then the eval
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/infra_gym_env_start_head_server_default_port_11000_taken_by_teams_model_server_on_the_node/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym env start --resources-server string_match --model-type vllm_model --model sim-policy --model-url http://127.0.0.1:11000/v1 --model-api-key dummy ++uv_venv_dir=/tmp/ho-infra_gym_env_start_-zyv62ieb/server_venvs ++skip_venv_if_present=true > logs/env_start.log 2>&1 &
GYM_PID=$!
for i in $(seq 60); do grep -q 'servers ready' logs/env_start.log && break; kill -0 $GYM_PID 2>/dev/null || break; sleep 2; done
tail -n 30 logs/env_start.log
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++uv_venv_dir=/tmp/ho-infra_gym_env_start_-zyv62ieb/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
kill -INT $GYM_PID 2>/dev/null; wait $GYM_PID
