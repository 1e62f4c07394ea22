#!/bin/bash
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/data_schema_taskfolder_server_log_reexported_with_viewer_legend_line_naming_every_level_so_error_count_is_four/run
echo '== input of count-error-lines'
head -3 tasks/count-error-lines/environment/server.log
echo '== materialize'
/work/wt-h91/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/data_schema_taskfolder_server_log_reexported_with_viewer_legend_line_naming_every_level_so_error_count_is_four/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h91/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/data_schema_taskfolder_server_log_reexported_with_viewer_legend_line_naming_every_level_so_error_count_is_four/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:34363/v1 --model-name sim-policy
echo '== profile'
/work/wt-h91/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/data_schema_taskfolder_server_log_reexported_with_viewer_legend_line_naming_every_level_so_error_count_is_four/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
