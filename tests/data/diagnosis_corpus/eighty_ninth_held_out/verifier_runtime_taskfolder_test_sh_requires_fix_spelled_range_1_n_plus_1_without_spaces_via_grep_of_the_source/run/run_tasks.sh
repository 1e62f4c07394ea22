#!/bin/bash
cd /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/verifier_runtime_taskfolder_test_sh_requires_fix_spelled_range_1_n_plus_1_without_spaces_via_grep_of_the_source/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h89/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/verifier_runtime_taskfolder_test_sh_requires_fix_spelled_range_1_n_plus_1_without_spaces_via_grep_of_the_source/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h89/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/verifier_runtime_taskfolder_test_sh_requires_fix_spelled_range_1_n_plus_1_without_spaces_via_grep_of_the_source/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41495/v1 --model-name sim-policy
echo '== profile'
/work/wt-h89/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/verifier_runtime_taskfolder_test_sh_requires_fix_spelled_range_1_n_plus_1_without_spaces_via_grep_of_the_source/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
