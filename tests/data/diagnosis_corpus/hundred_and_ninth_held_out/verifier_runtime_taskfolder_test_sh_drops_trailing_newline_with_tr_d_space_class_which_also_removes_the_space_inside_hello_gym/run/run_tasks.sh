#!/bin/bash
cd /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/verifier_runtime_taskfolder_test_sh_drops_trailing_newline_with_tr_d_space_class_which_also_removes_the_space_inside_hello_gym/run
echo '== weekly taskset run'
echo '== materialize'
/work/h109/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/verifier_runtime_taskfolder_test_sh_drops_trailing_newline_with_tr_d_space_class_which_also_removes_the_space_inside_hello_gym/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h109/.venv/bin/gym-pipeline stage collect --sweep-config /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/verifier_runtime_taskfolder_test_sh_drops_trailing_newline_with_tr_d_space_class_which_also_removes_the_space_inside_hello_gym/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:33187/v1 --model-name sim-policy
echo '== profile'
/work/h109/.venv/bin/gym-pipeline stage profile --sweep-config /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/verifier_runtime_taskfolder_test_sh_drops_trailing_newline_with_tr_d_space_class_which_also_removes_the_space_inside_hello_gym/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
