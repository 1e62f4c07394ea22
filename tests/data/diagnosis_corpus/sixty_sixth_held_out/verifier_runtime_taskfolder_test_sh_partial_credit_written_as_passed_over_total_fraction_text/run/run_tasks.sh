#!/bin/bash
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/verifier_runtime_taskfolder_test_sh_partial_credit_written_as_passed_over_total_fraction_text/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h66/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/verifier_runtime_taskfolder_test_sh_partial_credit_written_as_passed_over_total_fraction_text/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h66/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/verifier_runtime_taskfolder_test_sh_partial_credit_written_as_passed_over_total_fraction_text/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46023/v1 --model-name sim-policy
echo '== profile'
/work/wt-h66/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/verifier_runtime_taskfolder_test_sh_partial_credit_written_as_passed_over_total_fraction_text/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
