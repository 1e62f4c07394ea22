#!/bin/bash
# weekly eval (v2 server) with our qa_match_v2 server
cd /work/wt-h72/tests/data/diagnosis_corpus/seventy_second_held_out/healthy_gym_search_dir_keeps_retired_v1_copy_of_own_server_that_scored_everything_beside_the_v2_that_runs/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent qa_match_v2_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_search_d-pbvk3idh/my_gym ++head_server.port=39651 ++uv_venv_dir=/tmp/ho-healthy_gym_search_d-pbvk3idh/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
