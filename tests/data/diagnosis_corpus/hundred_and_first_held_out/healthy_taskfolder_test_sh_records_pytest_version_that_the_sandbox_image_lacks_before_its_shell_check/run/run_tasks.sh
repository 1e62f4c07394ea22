#!/bin/bash
cd /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/healthy_taskfolder_test_sh_records_pytest_version_that_the_sandbox_image_lacks_before_its_shell_check/run
echo '== weekly taskset run'
echo '== materialize'
/work/h101/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/healthy_taskfolder_test_sh_records_pytest_version_that_the_sandbox_image_lacks_before_its_shell_check/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h101/.venv/bin/gym-pipeline stage collect --sweep-config /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/healthy_taskfolder_test_sh_records_pytest_version_that_the_sandbox_image_lacks_before_its_shell_check/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44105/v1 --model-name sim-policy
echo '== profile'
/work/h101/.venv/bin/gym-pipeline stage profile --sweep-config /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/healthy_taskfolder_test_sh_records_pytest_version_that_the_sandbox_image_lacks_before_its_shell_check/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
