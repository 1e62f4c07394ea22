#!/bin/bash
cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/healthy_taskfolder_test_sh_logs_type_of_answer_file_with_file_command_the_sandbox_image_does_not_have/run
echo '== weekly taskset run'
echo '== materialize'
/work/h95/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/healthy_taskfolder_test_sh_logs_type_of_answer_file_with_file_command_the_sandbox_image_does_not_have/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h95/.venv/bin/gym-pipeline stage collect --sweep-config /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/healthy_taskfolder_test_sh_logs_type_of_answer_file_with_file_command_the_sandbox_image_does_not_have/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:40359/v1 --model-name sim-policy
echo '== profile'
/work/h95/.venv/bin/gym-pipeline stage profile --sweep-config /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/healthy_taskfolder_test_sh_logs_type_of_answer_file_with_file_command_the_sandbox_image_does_not_have/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
