#!/bin/bash
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/healthy_taskfolder_test_sh_negative_control_prints_fail_on_empty_result_after_reward/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h67/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/healthy_taskfolder_test_sh_negative_control_prints_fail_on_empty_result_after_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h67/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/healthy_taskfolder_test_sh_negative_control_prints_fail_on_empty_result_after_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:37725/v1 --model-name sim-policy
echo '== profile'
/work/wt-h67/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/healthy_taskfolder_test_sh_negative_control_prints_fail_on_empty_result_after_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
