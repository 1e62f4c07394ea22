#!/bin/bash
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_exit_trap_meant_as_failure_fallback_overwrites_pass_reward/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h43/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_exit_trap_meant_as_failure_fallback_overwrites_pass_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h43/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_exit_trap_meant_as_failure_fallback_overwrites_pass_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39903/v1 --model-name sim-policy
echo '== profile'
/work/wt-h43/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h43/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_exit_trap_meant_as_failure_fallback_overwrites_pass_reward/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
