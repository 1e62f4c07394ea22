#!/bin/bash
cd /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/verifier_runtime_taskfolder_checker_unpacked_with_python_zipfile_loses_its_executable_bit/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h57/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/verifier_runtime_taskfolder_checker_unpacked_with_python_zipfile_loses_its_executable_bit/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h57/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/verifier_runtime_taskfolder_checker_unpacked_with_python_zipfile_loses_its_executable_bit/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46567/v1 --model-name sim-policy
echo '== profile'
/work/wt-h57/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/verifier_runtime_taskfolder_checker_unpacked_with_python_zipfile_loses_its_executable_bit/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
