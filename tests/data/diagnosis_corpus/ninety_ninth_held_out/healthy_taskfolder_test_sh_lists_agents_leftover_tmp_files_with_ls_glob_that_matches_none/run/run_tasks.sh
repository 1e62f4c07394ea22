#!/bin/bash
cd /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/healthy_taskfolder_test_sh_lists_agents_leftover_tmp_files_with_ls_glob_that_matches_none/run
echo '== weekly taskset run'
echo '== materialize'
/work/h99/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/healthy_taskfolder_test_sh_lists_agents_leftover_tmp_files_with_ls_glob_that_matches_none/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h99/.venv/bin/gym-pipeline stage collect --sweep-config /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/healthy_taskfolder_test_sh_lists_agents_leftover_tmp_files_with_ls_glob_that_matches_none/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:38613/v1 --model-name sim-policy
echo '== profile'
/work/h99/.venv/bin/gym-pipeline stage profile --sweep-config /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/healthy_taskfolder_test_sh_lists_agents_leftover_tmp_files_with_ls_glob_that_matches_none/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
