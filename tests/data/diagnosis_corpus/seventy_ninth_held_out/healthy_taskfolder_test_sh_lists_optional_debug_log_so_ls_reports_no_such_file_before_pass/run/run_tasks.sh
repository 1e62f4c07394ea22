#!/bin/bash
cd /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/healthy_taskfolder_test_sh_lists_optional_debug_log_so_ls_reports_no_such_file_before_pass/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h79/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/healthy_taskfolder_test_sh_lists_optional_debug_log_so_ls_reports_no_such_file_before_pass/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h79/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/healthy_taskfolder_test_sh_lists_optional_debug_log_so_ls_reports_no_such_file_before_pass/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42095/v1 --model-name sim-policy
echo '== profile'
/work/wt-h79/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/healthy_taskfolder_test_sh_lists_optional_debug_log_so_ls_reports_no_such_file_before_pass/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
