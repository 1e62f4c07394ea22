#!/bin/bash
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/infra_taskfolder_docker_config_from_laptop_names_missing_credential_helper/run
export DOCKER_CONFIG=/tmp/ho-infra_taskfolder_doc-m676zzk2/home/dotfiles/docker   # my dotfiles: same docker settings everywhere
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h38/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/infra_taskfolder_docker_config_from_laptop_names_missing_credential_helper/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h38/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/infra_taskfolder_docker_config_from_laptop_names_missing_credential_helper/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:45109/v1 --model-name sim-policy
echo '== profile'
/work/wt-h38/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/infra_taskfolder_docker_config_from_laptop_names_missing_credential_helper/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
