#!/bin/bash
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/healthy_taskfolder_count_error_lines_input_log_quotes_oom_kills_tracebacks_and_segfaults_that_are_only_task_data/run
echo '== input of count-error-lines'
cat tasks/count-error-lines/environment/server.log
echo '== materialize'
/work/wt-h83/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/healthy_taskfolder_count_error_lines_input_log_quotes_oom_kills_tracebacks_and_segfaults_that_are_only_task_data/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h83/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/healthy_taskfolder_count_error_lines_input_log_quotes_oom_kills_tracebacks_and_segfaults_that_are_only_task_data/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42407/v1 --model-name sim-policy
echo '== profile'
/work/wt-h83/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/healthy_taskfolder_count_error_lines_input_log_quotes_oom_kills_tracebacks_and_segfaults_that_are_only_task_data/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
