#!/bin/bash
cd /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/verifier_runtime_taskfolder_test_sh_sources_shared_check_library_from_repo_folder_outside_its_tests/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h77/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/verifier_runtime_taskfolder_test_sh_sources_shared_check_library_from_repo_folder_outside_its_tests/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h77/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/verifier_runtime_taskfolder_test_sh_sources_shared_check_library_from_repo_folder_outside_its_tests/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:36513/v1 --model-name sim-policy
echo '== profile'
/work/wt-h77/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h77/tests/data/diagnosis_corpus/seventy_seventh_held_out/verifier_runtime_taskfolder_test_sh_sources_shared_check_library_from_repo_folder_outside_its_tests/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
