#!/bin/bash
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/healthy_taskfolder_run_script_lists_earlier_runs_killed_sandbox_container_exited_137_before_a_complete_run/run
echo '== leftover sandboxes on this node (an earlier run was killed)'
docker ps -a --filter name=h71-sandbox --format '{{.Names}}  {{.Status}}'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h71/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/healthy_taskfolder_run_script_lists_earlier_runs_killed_sandbox_container_exited_137_before_a_complete_run/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h71/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/healthy_taskfolder_run_script_lists_earlier_runs_killed_sandbox_container_exited_137_before_a_complete_run/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39757/v1 --model-name sim-policy
echo '== profile'
/work/wt-h71/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/healthy_taskfolder_run_script_lists_earlier_runs_killed_sandbox_container_exited_137_before_a_complete_run/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
