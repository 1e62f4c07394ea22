#!/bin/bash
cd /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/cache_resume_taskfolder_sync_script_copytree_dirs_exist_ok_keeps_task_retired_from_the_share/run
/work/wt-h77/.venv/bin/python sync.py /tmp/ho-cache_resume_taskfol-qfgv_0wy/share/taskset
echo '== materialize'
/work/wt-h77/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/cache_resume_taskfolder_sync_script_copytree_dirs_exist_ok_keeps_task_retired_from_the_share/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h77/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/cache_resume_taskfolder_sync_script_copytree_dirs_exist_ok_keeps_task_retired_from_the_share/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39163/v1 --model-name sim-policy
echo '== profile'
/work/wt-h77/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/cache_resume_taskfolder_sync_script_copytree_dirs_exist_ok_keeps_task_retired_from_the_share/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
