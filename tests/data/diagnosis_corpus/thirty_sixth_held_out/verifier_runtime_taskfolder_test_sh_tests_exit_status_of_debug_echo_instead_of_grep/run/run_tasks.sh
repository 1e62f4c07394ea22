#!/bin/bash
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_tests_exit_status_of_debug_echo_instead_of_grep/run
echo '== weekly taskset run of step_0100'
echo '== materialize'
/work/wt-h36/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h36/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_tests_exit_status_of_debug_echo_instead_of_grep/run/sweep.yaml --checkpoint step_0100 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h36/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h36/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_tests_exit_status_of_debug_echo_instead_of_grep/run/sweep.yaml --checkpoint step_0100 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46821/v1 --model-name sim-policy
echo '== profile'
/work/wt-h36/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h36/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_tests_exit_status_of_debug_echo_instead_of_grep/run/sweep.yaml --checkpoint step_0100 --env terminal_tasks --code-version v14
