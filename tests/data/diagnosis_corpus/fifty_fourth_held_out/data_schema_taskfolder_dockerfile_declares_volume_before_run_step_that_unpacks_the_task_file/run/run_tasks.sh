#!/bin/bash
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/data_schema_taskfolder_dockerfile_declares_volume_before_run_step_that_unpacks_the_task_file/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h54/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/data_schema_taskfolder_dockerfile_declares_volume_before_run_step_that_unpacks_the_task_file/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h54/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/data_schema_taskfolder_dockerfile_declares_volume_before_run_step_that_unpacks_the_task_file/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44593/v1 --model-name sim-policy
echo '== profile'
/work/wt-h54/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/data_schema_taskfolder_dockerfile_declares_volume_before_run_step_that_unpacks_the_task_file/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
