#!/bin/bash
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_reads_answer_from_new_output_folder/run
echo '== nightly taskset run'
echo '== materialize'
/work/wt-h23/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h23/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_reads_answer_from_new_output_folder/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h23/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h23/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_reads_answer_from_new_output_folder/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39863/v1 --model-name sim-policy
echo '== profile'
/work/wt-h23/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h23/tests/data/diagnosis_corpus/held_out/verifier_runtime_taskfolder_test_reads_answer_from_new_output_folder/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
