#!/bin/bash
cd /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/healthy_taskfolder_test_sh_lists_agents_file_beside_an_orig_backup_agents_seldom_keep_so_every_check_prints_cannot_access/run
echo '== weekly taskset run'
echo '== materialize'
/work/h105/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/healthy_taskfolder_test_sh_lists_agents_file_beside_an_orig_backup_agents_seldom_keep_so_every_check_prints_cannot_access/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h105/.venv/bin/gym-pipeline stage collect --sweep-config /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/healthy_taskfolder_test_sh_lists_agents_file_beside_an_orig_backup_agents_seldom_keep_so_every_check_prints_cannot_access/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:32875/v1 --model-name sim-policy
echo '== profile'
/work/h105/.venv/bin/gym-pipeline stage profile --sweep-config /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/healthy_taskfolder_test_sh_lists_agents_file_beside_an_orig_backup_agents_seldom_keep_so_every_check_prints_cannot_access/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
