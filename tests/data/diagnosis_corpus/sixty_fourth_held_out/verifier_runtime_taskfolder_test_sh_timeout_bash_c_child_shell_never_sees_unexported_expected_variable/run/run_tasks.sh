#!/bin/bash
cd /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/verifier_runtime_taskfolder_test_sh_timeout_bash_c_child_shell_never_sees_unexported_expected_variable/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h64/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/verifier_runtime_taskfolder_test_sh_timeout_bash_c_child_shell_never_sees_unexported_expected_variable/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h64/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/verifier_runtime_taskfolder_test_sh_timeout_bash_c_child_shell_never_sees_unexported_expected_variable/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46785/v1 --model-name sim-policy
echo '== profile'
/work/wt-h64/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/verifier_runtime_taskfolder_test_sh_timeout_bash_c_child_shell_never_sees_unexported_expected_variable/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
