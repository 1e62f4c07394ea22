#!/bin/bash
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_switches_to_docker_context_that_does_not_exist/run
docker context use team-remote || echo '(staying on the local Docker daemon)'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h36/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h36/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_switches_to_docker_context_that_does_not_exist/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h36/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h36/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_switches_to_docker_context_that_does_not_exist/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:35255/v1 --model-name sim-policy
echo '== profile'
/work/wt-h36/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h36/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_switches_to_docker_context_that_does_not_exist/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
