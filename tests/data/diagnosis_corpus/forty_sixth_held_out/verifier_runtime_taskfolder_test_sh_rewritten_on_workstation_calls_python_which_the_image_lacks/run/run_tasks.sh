#!/bin/bash
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_rewritten_on_workstation_calls_python_which_the_image_lacks/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h46/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_rewritten_on_workstation_calls_python_which_the_image_lacks/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h46/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_rewritten_on_workstation_calls_python_which_the_image_lacks/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:35129/v1 --model-name sim-policy
echo '== profile'
/work/wt-h46/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h46/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_rewritten_on_workstation_calls_python_which_the_image_lacks/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
