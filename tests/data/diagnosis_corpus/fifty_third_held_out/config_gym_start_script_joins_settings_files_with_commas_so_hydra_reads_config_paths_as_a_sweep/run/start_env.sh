#!/bin/bash
# start_env.sh: start the Gym servers with every settings file of configs/ (team model settings, request debug)
cd /work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/config_gym_start_script_joins_settings_files_with_commas_so_hydra_reads_config_paths_as_a_sweep/run
CONFIGS=$(ls /work/wt-h53/tests/data/diagnosis_corpus/fifty_third_held_out/config_gym_start_script_joins_settings_files_with_commas_so_hydra_reads_config_paths_as_a_sweep/run/configs/*.yaml | paste -sd, -)
echo "== gym env start with $CONFIGS"
exec /root/.cache/gym-pipeline/nemo-gym/venv/bin/gym env start --resources-server string_match --model-type vllm_model --model sim-policy --model-url http://127.0.0.1:38559/v1 --model-api-key dummy ++head_server.port=38791 ++uv_venv_dir=/tmp/ho-config_gym_start_scr-x85gqxvh/server_venvs ++skip_venv_if_present=true "+config_paths=$CONFIGS"
