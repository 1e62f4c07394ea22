#!/bin/bash
# weekly eval, one dated folder per run
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/config_gym_run_script_recomputes_dated_output_folder_after_the_minute_turned/run
mkdir -p results/$(date +%Y%m%d-%H%M)
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/$(date +%Y%m%d-%H%M)/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=38989 ++uv_venv_dir=/tmp/ho-config_gym_run_scrip-qpywb706/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/$(date +%Y%m%d-%H%M)/rollouts_materialized_inputs.jsonl --rollouts results/$(date +%Y%m%d-%H%M)/rollouts.jsonl
