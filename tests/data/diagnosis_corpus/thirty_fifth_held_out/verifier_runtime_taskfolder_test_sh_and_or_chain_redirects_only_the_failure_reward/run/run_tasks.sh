#!/bin/bash
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_and_or_chain_redirects_only_the_failure_reward/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h35/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_and_or_chain_redirects_only_the_failure_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h35/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_and_or_chain_redirects_only_the_failure_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44537/v1 --model-name sim-policy
echo '== profile'
/work/wt-h35/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h35/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_and_or_chain_redirects_only_the_failure_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
