#!/bin/bash
# weekly names quiz eval with our word_match server
cd /work/wt-h86/tests/data/diagnosis_corpus/eighty_sixth_held_out/healthy_gym_own_server_compares_sorted_words_and_prints_every_comparison_into_the_env_start_log/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent word_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-3vlss7s6/my_gym ++head_server.port=40381 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-3vlss7s6/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
