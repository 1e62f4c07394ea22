#!/bin/bash
cd /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/verifier_runtime_taskfolder_test_sh_sets_reward_inside_piped_while_loop_whose_subshell_discards_it_so_every_pass_scores_zero/run
echo '== weekly taskset run'
echo '== materialize'
/work/h103/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/verifier_runtime_taskfolder_test_sh_sets_reward_inside_piped_while_loop_whose_subshell_discards_it_so_every_pass_scores_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h103/.venv/bin/gym-pipeline stage collect --sweep-config /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/verifier_runtime_taskfolder_test_sh_sets_reward_inside_piped_while_loop_whose_subshell_discards_it_so_every_pass_scores_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46253/v1 --model-name sim-policy
echo '== profile'
/work/h103/.venv/bin/gym-pipeline stage profile --sweep-config /work/h103/tests/data/diagnosis_corpus/hundred_and_third_held_out/verifier_runtime_taskfolder_test_sh_sets_reward_inside_piped_while_loop_whose_subshell_discards_it_so_every_pass_scores_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
