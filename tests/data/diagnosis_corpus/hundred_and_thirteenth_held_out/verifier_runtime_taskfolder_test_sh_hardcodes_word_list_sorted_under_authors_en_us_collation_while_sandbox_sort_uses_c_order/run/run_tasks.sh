#!/bin/bash
cd /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/verifier_runtime_taskfolder_test_sh_hardcodes_word_list_sorted_under_authors_en_us_collation_while_sandbox_sort_uses_c_order/run
echo '== weekly taskset run'
echo '== materialize'
/work/h113/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/verifier_runtime_taskfolder_test_sh_hardcodes_word_list_sorted_under_authors_en_us_collation_while_sandbox_sort_uses_c_order/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h113/.venv/bin/gym-pipeline stage collect --sweep-config /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/verifier_runtime_taskfolder_test_sh_hardcodes_word_list_sorted_under_authors_en_us_collation_while_sandbox_sort_uses_c_order/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41603/v1 --model-name sim-policy
echo '== profile'
/work/h113/.venv/bin/gym-pipeline stage profile --sweep-config /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/verifier_runtime_taskfolder_test_sh_hardcodes_word_list_sorted_under_authors_en_us_collation_while_sandbox_sort_uses_c_order/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
