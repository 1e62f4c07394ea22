#!/bin/bash
cd /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/verifier_runtime_taskfolder_test_sh_new_check_for_n_100_expects_hand_computed_5000_instead_of_5050/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h85/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/verifier_runtime_taskfolder_test_sh_new_check_for_n_100_expects_hand_computed_5000_instead_of_5050/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h85/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/verifier_runtime_taskfolder_test_sh_new_check_for_n_100_expects_hand_computed_5000_instead_of_5050/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:34549/v1 --model-name sim-policy
echo '== profile'
/work/wt-h85/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/verifier_runtime_taskfolder_test_sh_new_check_for_n_100_expects_hand_computed_5000_instead_of_5050/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
