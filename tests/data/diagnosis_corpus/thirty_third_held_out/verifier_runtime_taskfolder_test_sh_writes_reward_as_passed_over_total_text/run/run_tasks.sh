#!/bin/bash
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_writes_reward_as_passed_over_total_text/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h33/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h33/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_writes_reward_as_passed_over_total_text/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h33/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h33/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_writes_reward_as_passed_over_total_text/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:36573/v1 --model-name sim-policy
echo '== profile'
/work/wt-h33/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h33/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_writes_reward_as_passed_over_total_text/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
