#!/bin/bash
# weekly eval with our quiz_syn server
cd /work/h100/tests/data/diagnosis_corpus/hundredth_held_out/healthy_gym_own_server_reports_missing_synonyms_table_at_start_and_falls_back_to_exact_matching_the_set_needs/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent quiz_syn_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_serv-ss04j_n7/my_gym ++head_server.port=44757 ++uv_venv_dir=/tmp/ho-healthy_gym_own_serv-ss04j_n7/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
