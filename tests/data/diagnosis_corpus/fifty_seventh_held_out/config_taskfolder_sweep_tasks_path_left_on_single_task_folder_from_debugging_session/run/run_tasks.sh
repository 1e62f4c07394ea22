#!/bin/bash
cd /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/config_taskfolder_sweep_tasks_path_left_on_single_task_folder_from_debugging_session/run
echo '== weekly taskset run (4 tasks)'
echo '== materialize'
/work/wt-h57/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/config_taskfolder_sweep_tasks_path_left_on_single_task_folder_from_debugging_session/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h57/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/config_taskfolder_sweep_tasks_path_left_on_single_task_folder_from_debugging_session/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:45529/v1 --model-name sim-policy
echo '== profile'
/work/wt-h57/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/config_taskfolder_sweep_tasks_path_left_on_single_task_folder_from_debugging_session/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
