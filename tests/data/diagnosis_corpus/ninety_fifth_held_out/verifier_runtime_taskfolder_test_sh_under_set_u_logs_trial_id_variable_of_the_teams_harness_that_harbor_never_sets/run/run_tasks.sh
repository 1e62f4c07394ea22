#!/bin/bash
cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/verifier_runtime_taskfolder_test_sh_under_set_u_logs_trial_id_variable_of_the_teams_harness_that_harbor_never_sets/run
echo '== weekly taskset run'
echo '== materialize'
/work/h95/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/verifier_runtime_taskfolder_test_sh_under_set_u_logs_trial_id_variable_of_the_teams_harness_that_harbor_never_sets/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h95/.venv/bin/gym-pipeline stage collect --sweep-config /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/verifier_runtime_taskfolder_test_sh_under_set_u_logs_trial_id_variable_of_the_teams_harness_that_harbor_never_sets/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41409/v1 --model-name sim-policy
echo '== profile'
/work/h95/.venv/bin/gym-pipeline stage profile --sweep-config /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/verifier_runtime_taskfolder_test_sh_under_set_u_logs_trial_id_variable_of_the_teams_harness_that_harbor_never_sets/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
