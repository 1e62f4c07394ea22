#!/bin/bash
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_reexported_with_currency_formatted_amounts/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h36/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h36/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_reexported_with_currency_formatted_amounts/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h36/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h36/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_reexported_with_currency_formatted_amounts/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:39267/v1 --model-name sim-policy
echo '== profile'
/work/wt-h36/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h36/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_reexported_with_currency_formatted_amounts/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
