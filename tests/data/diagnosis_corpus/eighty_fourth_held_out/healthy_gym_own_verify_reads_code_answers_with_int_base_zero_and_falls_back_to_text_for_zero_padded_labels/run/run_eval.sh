#!/bin/bash
# weekly codes quiz eval with our code_match server
cd /work/wt-h84/tests/data/diagnosis_corpus/eighty_fourth_held_out/healthy_gym_own_verify_reads_code_answers_with_int_base_zero_and_falls_back_to_text_for_zero_padded_labels/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent code_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true --search-dir /tmp/ho-healthy_gym_own_veri-1z_a0olj/my_gym ++head_server.port=55331 ++uv_venv_dir=/tmp/ho-healthy_gym_own_veri-1z_a0olj/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
