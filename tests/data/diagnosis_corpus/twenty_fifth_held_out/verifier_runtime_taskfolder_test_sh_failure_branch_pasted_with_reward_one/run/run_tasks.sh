#!/bin/bash
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_failure_branch_pasted_with_reward_one/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h25/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_failure_branch_pasted_with_reward_one/run/sweep.yaml --checkpoint step_0100 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h25/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_failure_branch_pasted_with_reward_one/run/sweep.yaml --checkpoint step_0100 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42045/v1 --model-name sim-policy
echo '== profile'
/work/wt-h25/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_failure_branch_pasted_with_reward_one/run/sweep.yaml --checkpoint step_0100 --env terminal_tasks --code-version v14
