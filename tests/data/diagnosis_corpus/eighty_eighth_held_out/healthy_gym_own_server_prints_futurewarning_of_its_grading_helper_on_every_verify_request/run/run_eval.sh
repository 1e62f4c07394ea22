#!/bin/bash
# weekly arithmetic eval with our quiz_match server
cd /work/wt-h88/tests/data/diagnosis_corpus/eighty_eighth_held_out/healthy_gym_own_server_prints_futurewarning_of_its_grading_helper_on_every_verify_request/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-5ykzlrcx/my_gym ++head_server.port=40365 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-5ykzlrcx/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
