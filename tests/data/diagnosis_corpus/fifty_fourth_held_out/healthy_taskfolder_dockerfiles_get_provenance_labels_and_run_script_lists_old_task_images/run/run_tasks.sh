#!/bin/bash
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/healthy_taskfolder_dockerfiles_get_provenance_labels_and_run_script_lists_old_task_images/run
echo '== task images already on this host'
docker image ls --format '{{.Repository}}:{{.Tag}}  {{.CreatedSince}}' | grep '^gym-pipeline-task/' | head -n 8
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h54/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/healthy_taskfolder_dockerfiles_get_provenance_labels_and_run_script_lists_old_task_images/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h54/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/healthy_taskfolder_dockerfiles_get_provenance_labels_and_run_script_lists_old_task_images/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41941/v1 --model-name sim-policy
echo '== profile'
/work/wt-h54/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/healthy_taskfolder_dockerfiles_get_provenance_labels_and_run_script_lists_old_task_images/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
