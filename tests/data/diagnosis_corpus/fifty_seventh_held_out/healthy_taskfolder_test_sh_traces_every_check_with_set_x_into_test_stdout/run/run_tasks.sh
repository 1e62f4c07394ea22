#!/bin/bash
cd /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/healthy_taskfolder_test_sh_traces_every_check_with_set_x_into_test_stdout/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h57/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/healthy_taskfolder_test_sh_traces_every_check_with_set_x_into_test_stdout/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h57/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/healthy_taskfolder_test_sh_traces_every_check_with_set_x_into_test_stdout/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:43279/v1 --model-name sim-policy
echo '== profile'
/work/wt-h57/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/healthy_taskfolder_test_sh_traces_every_check_with_set_x_into_test_stdout/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
