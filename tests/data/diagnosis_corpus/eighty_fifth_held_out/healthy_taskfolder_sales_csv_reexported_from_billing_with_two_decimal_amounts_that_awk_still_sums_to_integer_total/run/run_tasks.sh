#!/bin/bash
cd /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_taskfolder_sales_csv_reexported_from_billing_with_two_decimal_amounts_that_awk_still_sums_to_integer_total/run
echo '== input of csv-column-total'
cat tasks/csv-column-total/environment/sales.csv
echo '== materialize'
/work/wt-h85/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_taskfolder_sales_csv_reexported_from_billing_with_two_decimal_amounts_that_awk_still_sums_to_integer_total/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h85/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_taskfolder_sales_csv_reexported_from_billing_with_two_decimal_amounts_that_awk_still_sums_to_integer_total/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:44537/v1 --model-name sim-policy
echo '== profile'
/work/wt-h85/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/healthy_taskfolder_sales_csv_reexported_from_billing_with_two_decimal_amounts_that_awk_still_sums_to_integer_total/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
