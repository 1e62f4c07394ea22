#!/bin/bash
cd /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/verifier_runtime_taskfolder_test_sh_tees_labelled_reward_line_into_reward_txt_so_it_holds_reward_colon_1_not_a_number/run
echo '== weekly taskset run'
echo '== materialize'
/work/h107/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/verifier_runtime_taskfolder_test_sh_tees_labelled_reward_line_into_reward_txt_so_it_holds_reward_colon_1_not_a_number/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h107/.venv/bin/gym-pipeline stage collect --sweep-config /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/verifier_runtime_taskfolder_test_sh_tees_labelled_reward_line_into_reward_txt_so_it_holds_reward_colon_1_not_a_number/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:45079/v1 --model-name sim-policy
echo '== profile'
/work/h107/.venv/bin/gym-pipeline stage profile --sweep-config /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/verifier_runtime_taskfolder_test_sh_tees_labelled_reward_line_into_reward_txt_so_it_holds_reward_colon_1_not_a_number/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
