#!/bin/bash
# smoke eval: one rollout per task, to check the wiring
cd /work/wt-h63/tests/data/diagnosis_corpus/sixty_third_held_out/healthy_gym_smoke_eval_with_one_repeat_per_task_profiles_without_spread/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 1 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=60725 ++uv_venv_dir=/tmp/ho-healthy_gym_smoke_ev-ujxwt9ri/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
