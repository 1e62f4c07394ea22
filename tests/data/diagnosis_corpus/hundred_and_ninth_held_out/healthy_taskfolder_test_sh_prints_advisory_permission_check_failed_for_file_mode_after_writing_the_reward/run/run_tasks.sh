#!/bin/bash
cd /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/healthy_taskfolder_test_sh_prints_advisory_permission_check_failed_for_file_mode_after_writing_the_reward/run
echo '== weekly taskset run'
echo '== materialize'
/work/h109/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/healthy_taskfolder_test_sh_prints_advisory_permission_check_failed_for_file_mode_after_writing_the_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h109/.venv/bin/gym-pipeline stage collect --sweep-config /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/healthy_taskfolder_test_sh_prints_advisory_permission_check_failed_for_file_mode_after_writing_the_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:34979/v1 --model-name sim-policy
echo '== profile'
/work/h109/.venv/bin/gym-pipeline stage profile --sweep-config /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/healthy_taskfolder_test_sh_prints_advisory_permission_check_failed_for_file_mode_after_writing_the_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
