#!/bin/bash
cd /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/verifier_runtime_taskfolder_test_sh_default_reward_line_tests_file_exists_with_and_instead_of_or_so_every_pass_becomes_zero/run
echo '== weekly taskset run'
echo '== materialize'
/work/h101/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/verifier_runtime_taskfolder_test_sh_default_reward_line_tests_file_exists_with_and_instead_of_or_so_every_pass_becomes_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h101/.venv/bin/gym-pipeline stage collect --sweep-config /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/verifier_runtime_taskfolder_test_sh_default_reward_line_tests_file_exists_with_and_instead_of_or_so_every_pass_becomes_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44509/v1 --model-name sim-policy
echo '== profile'
/work/h101/.venv/bin/gym-pipeline stage profile --sweep-config /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/verifier_runtime_taskfolder_test_sh_default_reward_line_tests_file_exists_with_and_instead_of_or_so_every_pass_becomes_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
