#!/bin/bash
cd /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/verifier_runtime_taskfolder_test_sh_reward_json_carries_boolean_passed_entry_so_every_reward_file_is_invalid/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h81/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/verifier_runtime_taskfolder_test_sh_reward_json_carries_boolean_passed_entry_so_every_reward_file_is_invalid/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h81/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/verifier_runtime_taskfolder_test_sh_reward_json_carries_boolean_passed_entry_so_every_reward_file_is_invalid/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39309/v1 --model-name sim-policy
echo '== profile'
/work/wt-h81/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/verifier_runtime_taskfolder_test_sh_reward_json_carries_boolean_passed_entry_so_every_reward_file_is_invalid/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
