#!/bin/bash
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_checks_buildx_plugin_missing_on_host/run
docker buildx version || echo '(no buildx here: the images are built by the pipeline)'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h38/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_checks_buildx_plugin_missing_on_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h38/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_checks_buildx_plugin_missing_on_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:37913/v1 --model-name sim-policy
echo '== profile'
/work/wt-h38/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_checks_buildx_plugin_missing_on_host/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
