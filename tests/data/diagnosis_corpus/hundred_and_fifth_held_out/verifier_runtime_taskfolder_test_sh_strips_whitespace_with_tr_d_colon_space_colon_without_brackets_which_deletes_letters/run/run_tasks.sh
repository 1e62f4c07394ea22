#!/bin/bash
cd /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/verifier_runtime_taskfolder_test_sh_strips_whitespace_with_tr_d_colon_space_colon_without_brackets_which_deletes_letters/run
echo '== weekly taskset run'
echo '== materialize'
/work/h105/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/verifier_runtime_taskfolder_test_sh_strips_whitespace_with_tr_d_colon_space_colon_without_brackets_which_deletes_letters/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h105/.venv/bin/gym-pipeline stage collect --sweep-config /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/verifier_runtime_taskfolder_test_sh_strips_whitespace_with_tr_d_colon_space_colon_without_brackets_which_deletes_letters/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42765/v1 --model-name sim-policy
echo '== profile'
/work/h105/.venv/bin/gym-pipeline stage profile --sweep-config /work/h105/tests/data/diagnosis_corpus/hundred_and_fifth_held_out/verifier_runtime_taskfolder_test_sh_strips_whitespace_with_tr_d_colon_space_colon_without_brackets_which_deletes_letters/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
