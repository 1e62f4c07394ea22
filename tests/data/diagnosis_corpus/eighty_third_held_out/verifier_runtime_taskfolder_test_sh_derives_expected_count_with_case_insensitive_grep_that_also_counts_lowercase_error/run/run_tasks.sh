#!/bin/bash
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/verifier_runtime_taskfolder_test_sh_derives_expected_count_with_case_insensitive_grep_that_also_counts_lowercase_error/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h83/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/verifier_runtime_taskfolder_test_sh_derives_expected_count_with_case_insensitive_grep_that_also_counts_lowercase_error/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h83/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/verifier_runtime_taskfolder_test_sh_derives_expected_count_with_case_insensitive_grep_that_also_counts_lowercase_error/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:37719/v1 --model-name sim-policy
echo '== profile'
/work/wt-h83/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/verifier_runtime_taskfolder_test_sh_derives_expected_count_with_case_insensitive_grep_that_also_counts_lowercase_error/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
