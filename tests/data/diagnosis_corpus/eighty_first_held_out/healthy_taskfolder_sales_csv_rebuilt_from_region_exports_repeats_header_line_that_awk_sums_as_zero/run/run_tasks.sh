#!/bin/bash
cd /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/healthy_taskfolder_sales_csv_rebuilt_from_region_exports_repeats_header_line_that_awk_sums_as_zero/run
cat exports/north.csv exports/south.csv exports/east.csv > tasks/csv-column-total/environment/sales.csv
cat tasks/csv-column-total/environment/sales.csv
echo '== materialize'
/work/wt-h81/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/healthy_taskfolder_sales_csv_rebuilt_from_region_exports_repeats_header_line_that_awk_sums_as_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h81/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/healthy_taskfolder_sales_csv_rebuilt_from_region_exports_repeats_header_line_that_awk_sums_as_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:42675/v1 --model-name sim-policy
echo '== profile'
/work/wt-h81/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/healthy_taskfolder_sales_csv_rebuilt_from_region_exports_repeats_header_line_that_awk_sums_as_zero/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
