#!/bin/bash
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/infra_taskfolder_dotfiles_synced_from_laptop_name_docker_desktop_credential_store_missing_on_node/run
echo '== weekly taskset run'
cat ~/.docker/config.json
echo '== materialize'
/work/wt-h46/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/infra_taskfolder_dotfiles_synced_from_laptop_name_docker_desktop_credential_store_missing_on_node/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h46/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/infra_taskfolder_dotfiles_synced_from_laptop_name_docker_desktop_credential_store_missing_on_node/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:37051/v1 --model-name sim-policy
echo '== profile'
/work/wt-h46/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/infra_taskfolder_dotfiles_synced_from_laptop_name_docker_desktop_credential_store_missing_on_node/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
