#!/bin/bash
cd /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/data_schema_taskfolder_sales_csv_reexported_from_spreadsheet_with_total_footer_row_so_column_sum_counts_it_twice/run
echo '== input of csv-column-total'
cat tasks/csv-column-total/environment/sales.csv
echo '== materialize'
/work/wt-h89/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/data_schema_taskfolder_sales_csv_reexported_from_spreadsheet_with_total_footer_row_so_column_sum_counts_it_twice/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h89/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/data_schema_taskfolder_sales_csv_reexported_from_spreadsheet_with_total_footer_row_so_column_sum_counts_it_twice/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:35115/v1 --model-name sim-policy
echo '== profile'
/work/wt-h89/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/data_schema_taskfolder_sales_csv_reexported_from_spreadsheet_with_total_footer_row_so_column_sum_counts_it_twice/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
