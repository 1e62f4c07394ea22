#!/bin/bash
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_computes_score_with_bc_missing_from_image/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h34/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h34/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_computes_score_with_bc_missing_from_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h34/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h34/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_computes_score_with_bc_missing_from_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:33859/v1 --model-name sim-policy
echo '== profile'
/work/wt-h34/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h34/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_computes_score_with_bc_missing_from_image/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
