#!/bin/bash
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_prebuilt_image_not_on_host/run
docker image inspect --format '{{.Created}}' weekly-eval/prebuilt:latest || echo '(prebuilt image not here)'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h30/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h30/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_prebuilt_image_not_on_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h30/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h30/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_prebuilt_image_not_on_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:33495/v1 --model-name sim-policy
echo '== profile'
/work/wt-h30/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h30/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_prebuilt_image_not_on_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
