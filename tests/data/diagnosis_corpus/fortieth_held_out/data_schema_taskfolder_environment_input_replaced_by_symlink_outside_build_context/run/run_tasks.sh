#!/bin/bash
cd /work/wt-h40/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_environment_input_replaced_by_symlink_outside_build_context/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h40/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h40/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_environment_input_replaced_by_symlink_outside_build_context/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h40/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h40/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_environment_input_replaced_by_symlink_outside_build_context/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:45823/v1 --model-name sim-policy
echo '== profile'
/work/wt-h40/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h40/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_environment_input_replaced_by_symlink_outside_build_context/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
