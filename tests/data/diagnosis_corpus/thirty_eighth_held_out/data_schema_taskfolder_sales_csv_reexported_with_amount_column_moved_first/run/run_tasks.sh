#!/bin/bash
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_reexported_with_amount_column_moved_first/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h38/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_reexported_with_amount_column_moved_first/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h38/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_reexported_with_amount_column_moved_first/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:43519/v1 --model-name sim-policy
echo '== profile'
/work/wt-h38/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h38/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_reexported_with_amount_column_moved_first/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
