#!/bin/bash
# weekly eval
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/config_gym_run_script_reads_repeats_with_jq_key_not_in_settings_json/run
REPEATS=$(jq -r .repeats eval_settings.json)
echo "== weekly eval: $REPEATS repeats a task"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats $REPEATS --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=57347 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-8s_qoapr/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
