#!/bin/bash
# weekly eval with our numeric_or_text server
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/healthy_gym_own_server_logs_full_traceback_of_the_handled_number_parse_error_for_every_word_answer/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent numeric_or_text_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-dy_vmcmt/my_gym ++head_server.port=35053 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-dy_vmcmt/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
