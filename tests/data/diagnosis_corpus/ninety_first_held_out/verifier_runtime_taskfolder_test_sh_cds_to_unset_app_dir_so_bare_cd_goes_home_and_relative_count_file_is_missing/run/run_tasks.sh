#!/bin/bash
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/verifier_runtime_taskfolder_test_sh_cds_to_unset_app_dir_so_bare_cd_goes_home_and_relative_count_file_is_missing/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h91/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/verifier_runtime_taskfolder_test_sh_cds_to_unset_app_dir_so_bare_cd_goes_home_and_relative_count_file_is_missing/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h91/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/verifier_runtime_taskfolder_test_sh_cds_to_unset_app_dir_so_bare_cd_goes_home_and_relative_count_file_is_missing/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:32937/v1 --model-name sim-policy
echo '== profile'
/work/wt-h91/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/verifier_runtime_taskfolder_test_sh_cds_to_unset_app_dir_so_bare_cd_goes_home_and_relative_count_file_is_missing/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
