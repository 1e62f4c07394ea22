#!/bin/bash
cd /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/verifier_runtime_taskfolder_test_sh_err_trap_fallback_fires_on_failing_scratch_cleanup_after_pass_and_rewrites_zero/run
echo '== weekly taskset run'
echo '== materialize'
/work/h99/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/verifier_runtime_taskfolder_test_sh_err_trap_fallback_fires_on_failing_scratch_cleanup_after_pass_and_rewrites_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h99/.venv/bin/gym-pipeline stage collect --sweep-config /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/verifier_runtime_taskfolder_test_sh_err_trap_fallback_fires_on_failing_scratch_cleanup_after_pass_and_rewrites_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44269/v1 --model-name sim-policy
echo '== profile'
/work/h99/.venv/bin/gym-pipeline stage profile --sweep-config /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/verifier_runtime_taskfolder_test_sh_err_trap_fallback_fires_on_failing_scratch_cleanup_after_pass_and_rewrites_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
