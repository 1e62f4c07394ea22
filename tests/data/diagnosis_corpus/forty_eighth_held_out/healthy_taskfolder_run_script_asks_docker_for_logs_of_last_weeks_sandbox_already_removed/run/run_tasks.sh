#!/bin/bash
cd /work/wt-h48/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_asks_docker_for_logs_of_last_weeks_sandbox_already_removed/run
echo '== weekly taskset run'
# last week's sandbox that hung: keep its last lines for the ticket (it may have been cleaned up already)
docker logs --tail 5 sm-sandbox-last-week 2>&1 || echo '(last week sandbox already removed)'
echo '== materialize'
/work/wt-h48/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h48/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_asks_docker_for_logs_of_last_weeks_sandbox_already_removed/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h48/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h48/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_asks_docker_for_logs_of_last_weeks_sandbox_already_removed/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39429/v1 --model-name sim-policy
echo '== profile'
/work/wt-h48/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h48/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_asks_docker_for_logs_of_last_weeks_sandbox_already_removed/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
