#!/bin/bash
# copied from the multi-node launch of last month
/root/.cache/gym-pipeline/nemo-gym/venv/bin/gym env start --resources-server string_match --model-type vllm_model --model sim-policy --model-url http://127.0.0.1:34363/v1 --model-api-key dummy ++head_server.host=10.40.2.17 ++head_server.port=40451 ++uv_venv_dir=/tmp/ho-config_gym_head_serv-y7bnfpea/server_venvs ++skip_venv_if_present=true
