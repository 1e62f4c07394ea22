#!/bin/bash
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_export_appends_total_row/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h27/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h27/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_export_appends_total_row/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h27/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h27/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_export_appends_total_row/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:34659/v1 --model-name sim-policy
echo '== profile'
/work/wt-h27/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h27/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_export_appends_total_row/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
