#!/bin/bash
# weekly eval
cd /work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/config_gym_start_script_joins_settings_files_with_commas_so_hydra_reads_config_paths_as_a_sweep/run
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval run --no-serve --agent string_match_simple_agent --input tasks.jsonl --output results/rollouts.jsonl --num-repeats 3 --concurrency 4 ++route_failures_to_sidecar=true ++head_server.port=38791 ++uv_venv_dir=/tmp/ho-config_gym_start_scr-x85gqxvh/server_venvs ++skip_venv_if_present=true
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym eval profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
