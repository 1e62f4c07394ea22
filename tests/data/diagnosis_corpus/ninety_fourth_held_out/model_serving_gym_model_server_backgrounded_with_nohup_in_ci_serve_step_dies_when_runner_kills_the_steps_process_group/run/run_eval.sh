#!/bin/bash
# CI step eval: gym eval run against the server of the serve step, then profile
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/model_serving_gym_model_server_backgrounded_with_nohup_in_ci_serve_step_dies_when_runner_kills_the_steps_process_group/run
timeout 300 /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=54559 ++uv_venv_dir=/tmp/ho-model_serving_gym_mo-26euzczc/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
