#!/bin/bash
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_byte_compare_without_final_newline/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h31/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h31/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_byte_compare_without_final_newline/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h31/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h31/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_byte_compare_without_final_newline/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46513/v1 --model-name sim-policy
echo '== profile'
/work/wt-h31/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h31/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_sh_byte_compare_without_final_newline/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
