#!/bin/bash
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/throughput_taskfolder_verifier_time_limit_below_new_large_input_regression_check/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h38/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/throughput_taskfolder_verifier_time_limit_below_new_large_input_regression_check/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h38/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/throughput_taskfolder_verifier_time_limit_below_new_large_input_regression_check/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:45299/v1 --model-name sim-policy
echo '== profile'
/work/wt-h38/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/throughput_taskfolder_verifier_time_limit_below_new_large_input_regression_check/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
