#!/bin/bash
cd /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_taskfolder_sum_to_py_prints_futurewarning_on_stderr_every_call_while_the_test_compares_only_stdout/run
echo '== smoke of the task script (before the fix it prints 45)'
python3 tasks/fix-off-by-one/environment/sum_to.py 10
echo '== materialize'
/work/wt-h85/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_taskfolder_sum_to_py_prints_futurewarning_on_stderr_every_call_while_the_test_compares_only_stdout/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h85/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_taskfolder_sum_to_py_prints_futurewarning_on_stderr_every_call_while_the_test_compares_only_stdout/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:36059/v1 --model-name sim-policy
echo '== profile'
/work/wt-h85/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_taskfolder_sum_to_py_prints_futurewarning_on_stderr_every_call_while_the_test_compares_only_stdout/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
