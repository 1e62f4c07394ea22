#!/bin/bash
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_sorts_expectation_with_gawk_only_asort_but_image_has_mawk/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h44/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h44/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_sorts_expectation_with_gawk_only_asort_but_image_has_mawk/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h44/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h44/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_sorts_expectation_with_gawk_only_asort_but_image_has_mawk/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:37585/v1 --model-name sim-policy
echo '== profile'
/work/wt-h44/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h44/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_sorts_expectation_with_gawk_only_asort_but_image_has_mawk/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
