#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/model_serving_gym_serve_script_port_override_picks_up_port_exported_by_notebook_profile/run
echo '== weekly eval'
source eval_settings.sh
echo "model endpoint: $MODEL_URL"
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=52115 ++uv_venv_dir=/tmp/ho-model_serving_gym_se-k_sd0fce/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
