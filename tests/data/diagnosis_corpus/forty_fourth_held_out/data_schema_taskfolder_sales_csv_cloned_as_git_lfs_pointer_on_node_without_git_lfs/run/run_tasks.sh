#!/bin/bash
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_cloned_as_git_lfs_pointer_on_node_without_git_lfs/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h44/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h44/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_cloned_as_git_lfs_pointer_on_node_without_git_lfs/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h44/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h44/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_cloned_as_git_lfs_pointer_on_node_without_git_lfs/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46827/v1 --model-name sim-policy
echo '== profile'
/work/wt-h44/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h44/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sales_csv_cloned_as_git_lfs_pointer_on_node_without_git_lfs/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
