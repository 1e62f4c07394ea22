#!/bin/bash
cd /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/healthy_taskfolder_test_sh_dumps_kernel_log_with_dmesg_which_the_unprivileged_sandbox_may_not_read/run
echo '== weekly taskset run'
echo '== materialize'
/work/h97/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/healthy_taskfolder_test_sh_dumps_kernel_log_with_dmesg_which_the_unprivileged_sandbox_may_not_read/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h97/.venv/bin/gym-pipeline stage collect --sweep-config /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/healthy_taskfolder_test_sh_dumps_kernel_log_with_dmesg_which_the_unprivileged_sandbox_may_not_read/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:40533/v1 --model-name sim-policy
echo '== profile'
/work/h97/.venv/bin/gym-pipeline stage profile --sweep-config /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/healthy_taskfolder_test_sh_dumps_kernel_log_with_dmesg_which_the_unprivileged_sandbox_may_not_read/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
