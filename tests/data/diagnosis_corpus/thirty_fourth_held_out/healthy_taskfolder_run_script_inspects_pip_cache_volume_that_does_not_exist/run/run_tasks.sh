#!/bin/bash
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_pip_cache_volume_that_does_not_exist/run
docker volume inspect team-pip-cache || echo '(no shared pip cache here)'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h34/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h34/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_pip_cache_volume_that_does_not_exist/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h34/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h34/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_pip_cache_volume_that_does_not_exist/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:43237/v1 --model-name sim-policy
echo '== profile'
/work/wt-h34/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h34/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_inspects_pip_cache_volume_that_does_not_exist/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
