#!/bin/bash
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/verifier_runtime_taskfolder_test_sh_names_its_file_variable_path_so_tr_is_no_longer_found/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h73/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/verifier_runtime_taskfolder_test_sh_names_its_file_variable_path_so_tr_is_no_longer_found/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h73/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/verifier_runtime_taskfolder_test_sh_names_its_file_variable_path_so_tr_is_no_longer_found/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39929/v1 --model-name sim-policy
echo '== profile'
/work/wt-h73/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/verifier_runtime_taskfolder_test_sh_names_its_file_variable_path_so_tr_is_no_longer_found/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
