#!/bin/bash
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_checks_sandbox_image_is_offline_with_apt_get_update/run
echo '== egress check: the sandbox image must not reach the internet (apt-get update has to fail)'
docker run --rm --network none gym-pipeline/base:bookworm apt-get update
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h40/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h40/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_checks_sandbox_image_is_offline_with_apt_get_update/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h40/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h40/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_checks_sandbox_image_is_offline_with_apt_get_update/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44361/v1 --model-name sim-policy
echo '== profile'
/work/wt-h40/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h40/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_checks_sandbox_image_is_offline_with_apt_get_update/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
