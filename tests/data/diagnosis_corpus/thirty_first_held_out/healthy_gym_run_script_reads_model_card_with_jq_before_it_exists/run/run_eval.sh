#!/bin/bash
# weekly eval
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/healthy_gym_run_script_reads_model_card_with_jq_before_it_exists/run
jq -r .model_version model_card.json || echo '(model version unknown)'
echo '== weekly eval'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=40717 ++uv_venv_dir=/tmp/ho-healthy_gym_run_scri-f2h4r_lw/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
