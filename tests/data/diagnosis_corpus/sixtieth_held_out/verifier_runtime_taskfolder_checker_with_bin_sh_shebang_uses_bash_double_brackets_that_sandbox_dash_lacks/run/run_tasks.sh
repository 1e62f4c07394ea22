#!/bin/bash
cd /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/verifier_runtime_taskfolder_checker_with_bin_sh_shebang_uses_bash_double_brackets_that_sandbox_dash_lacks/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h60/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/verifier_runtime_taskfolder_checker_with_bin_sh_shebang_uses_bash_double_brackets_that_sandbox_dash_lacks/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h60/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/verifier_runtime_taskfolder_checker_with_bin_sh_shebang_uses_bash_double_brackets_that_sandbox_dash_lacks/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:36663/v1 --model-name sim-policy
echo '== profile'
/work/wt-h60/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h60/tests/data/diagnosis_corpus/sixtieth_held_out/verifier_runtime_taskfolder_checker_with_bin_sh_shebang_uses_bash_double_brackets_that_sandbox_dash_lacks/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
