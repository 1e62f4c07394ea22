#!/bin/bash
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/verifier_runtime_taskfolder_test_sh_derives_expected_top_word_with_ascending_count_sort_so_head_takes_least_frequent/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h87/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/verifier_runtime_taskfolder_test_sh_derives_expected_top_word_with_ascending_count_sort_so_head_takes_least_frequent/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h87/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/verifier_runtime_taskfolder_test_sh_derives_expected_top_word_with_ascending_count_sort_so_head_takes_least_frequent/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42171/v1 --model-name sim-policy
echo '== profile'
/work/wt-h87/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/verifier_runtime_taskfolder_test_sh_derives_expected_top_word_with_ascending_count_sort_so_head_takes_least_frequent/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
