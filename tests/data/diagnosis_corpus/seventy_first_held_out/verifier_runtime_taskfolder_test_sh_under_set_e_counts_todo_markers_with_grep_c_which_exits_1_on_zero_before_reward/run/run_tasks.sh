#!/bin/bash
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/verifier_runtime_taskfolder_test_sh_under_set_e_counts_todo_markers_with_grep_c_which_exits_1_on_zero_before_reward/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h71/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/verifier_runtime_taskfolder_test_sh_under_set_e_counts_todo_markers_with_grep_c_which_exits_1_on_zero_before_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h71/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/verifier_runtime_taskfolder_test_sh_under_set_e_counts_todo_markers_with_grep_c_which_exits_1_on_zero_before_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:36247/v1 --model-name sim-policy
echo '== profile'
/work/wt-h71/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/verifier_runtime_taskfolder_test_sh_under_set_e_counts_todo_markers_with_grep_c_which_exits_1_on_zero_before_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
