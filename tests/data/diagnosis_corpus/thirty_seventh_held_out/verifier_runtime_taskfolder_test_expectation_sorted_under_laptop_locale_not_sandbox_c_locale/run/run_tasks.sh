#!/bin/bash
cd /work/wt-h37/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_expectation_sorted_under_laptop_locale_not_sandbox_c_locale/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h37/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h37/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_expectation_sorted_under_laptop_locale_not_sandbox_c_locale/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h37/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h37/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_expectation_sorted_under_laptop_locale_not_sandbox_c_locale/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:33663/v1 --model-name sim-policy
echo '== profile'
/work/wt-h37/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h37/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_expectation_sorted_under_laptop_locale_not_sandbox_c_locale/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
