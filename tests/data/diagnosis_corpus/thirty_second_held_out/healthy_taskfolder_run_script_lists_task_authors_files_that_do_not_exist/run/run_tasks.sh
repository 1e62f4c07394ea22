#!/bin/bash
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lists_task_authors_files_that_do_not_exist/run
cat tasks/*/AUTHORS || echo '(task authors not listed)'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h32/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h32/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lists_task_authors_files_that_do_not_exist/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h32/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h32/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lists_task_authors_files_that_do_not_exist/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41205/v1 --model-name sim-policy
echo '== profile'
/work/wt-h32/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h32/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lists_task_authors_files_that_do_not_exist/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
