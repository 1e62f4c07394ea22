#!/bin/bash
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_uses_python_312_fstring_quotes_on_311_sandbox/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h41/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_uses_python_312_fstring_quotes_on_311_sandbox/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h41/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_uses_python_312_fstring_quotes_on_311_sandbox/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:43083/v1 --model-name sim-policy
echo '== profile'
/work/wt-h41/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_uses_python_312_fstring_quotes_on_311_sandbox/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
