#!/bin/bash
cd /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/verifier_runtime_taskfolder_test_sh_debug_helper_ends_in_and_list_so_under_set_e_its_first_call_exits_before_reward/run
echo '== weekly taskset run'
echo '== materialize'
/work/h97/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/verifier_runtime_taskfolder_test_sh_debug_helper_ends_in_and_list_so_under_set_e_its_first_call_exits_before_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h97/.venv/bin/gym-pipeline stage collect --sweep-config /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/verifier_runtime_taskfolder_test_sh_debug_helper_ends_in_and_list_so_under_set_e_its_first_call_exits_before_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:40289/v1 --model-name sim-policy
echo '== profile'
/work/h97/.venv/bin/gym-pipeline stage profile --sweep-config /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/verifier_runtime_taskfolder_test_sh_debug_helper_ends_in_and_list_so_under_set_e_its_first_call_exits_before_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
