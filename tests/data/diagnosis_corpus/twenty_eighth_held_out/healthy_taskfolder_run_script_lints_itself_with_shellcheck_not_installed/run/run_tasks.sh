#!/bin/bash
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lints_itself_with_shellcheck_not_installed/run
shellcheck "$0" || echo '(lint skipped)'
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h28/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h28/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lints_itself_with_shellcheck_not_installed/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h28/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h28/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lints_itself_with_shellcheck_not_installed/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:33651/v1 --model-name sim-policy
echo '== profile'
/work/wt-h28/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h28/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_lints_itself_with_shellcheck_not_installed/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
