#!/bin/bash
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/healthy_taskfolder_test_sh_deletes_the_agents_files_in_app_with_rm_rv_after_writing_reward/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h69/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/healthy_taskfolder_test_sh_deletes_the_agents_files_in_app_with_rm_rv_after_writing_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h69/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/healthy_taskfolder_test_sh_deletes_the_agents_files_in_app_with_rm_rv_after_writing_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:37943/v1 --model-name sim-policy
echo '== profile'
/work/wt-h69/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/healthy_taskfolder_test_sh_deletes_the_agents_files_in_app_with_rm_rv_after_writing_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
