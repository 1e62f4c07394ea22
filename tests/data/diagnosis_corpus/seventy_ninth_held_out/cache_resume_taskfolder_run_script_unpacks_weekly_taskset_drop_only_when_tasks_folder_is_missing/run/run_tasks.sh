#!/bin/bash
cd /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/cache_resume_taskfolder_run_script_unpacks_weekly_taskset_drop_only_when_tasks_folder_is_missing/run
[ -d tasks ] || (mkdir tasks && tar xzf /tmp/ho-cache_resume_taskfol-_0knxli2/share/drops/taskset_current.tar.gz -C tasks --strip-components 1)
ls tasks
echo '== materialize'
/work/wt-h79/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/cache_resume_taskfolder_run_script_unpacks_weekly_taskset_drop_only_when_tasks_folder_is_missing/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h79/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/cache_resume_taskfolder_run_script_unpacks_weekly_taskset_drop_only_when_tasks_folder_is_missing/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:37067/v1 --model-name sim-policy
echo '== profile'
/work/wt-h79/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/cache_resume_taskfolder_run_script_unpacks_weekly_taskset_drop_only_when_tasks_folder_is_missing/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
