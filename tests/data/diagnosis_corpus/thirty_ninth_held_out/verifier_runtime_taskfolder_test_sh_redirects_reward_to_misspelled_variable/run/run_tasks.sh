#!/bin/bash
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_redirects_reward_to_misspelled_variable/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h39/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h39/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_redirects_reward_to_misspelled_variable/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h39/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h39/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_redirects_reward_to_misspelled_variable/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42675/v1 --model-name sim-policy
echo '== profile'
/work/wt-h39/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h39/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_redirects_reward_to_misspelled_variable/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
