#!/bin/bash
# weekly eval
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/model_serving_gym_serve_script_sorts_unpadded_step_names_as_text/run
echo '== weekly eval of the newest checkpoint'
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=36621 ++uv_venv_dir=/tmp/ho-model_serving_gym_se-6iqo3ve0/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
