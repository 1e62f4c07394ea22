#!/bin/bash
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_server_log_refreshed_from_export_with_bare_carriage_return_line_ends/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h42/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h42/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_server_log_refreshed_from_export_with_bare_carriage_return_line_ends/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h42/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h42/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_server_log_refreshed_from_export_with_bare_carriage_return_line_ends/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:40663/v1 --model-name sim-policy
echo '== profile'
/work/wt-h42/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h42/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_server_log_refreshed_from_export_with_bare_carriage_return_line_ends/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
