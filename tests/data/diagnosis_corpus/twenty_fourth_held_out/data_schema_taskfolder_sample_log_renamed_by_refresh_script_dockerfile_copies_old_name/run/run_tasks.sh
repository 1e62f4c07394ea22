#!/bin/bash
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sample_log_renamed_by_refresh_script_dockerfile_copies_old_name/run
echo '== nightly taskset run'
echo '== materialize'
/work/wt-h24/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h24/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sample_log_renamed_by_refresh_script_dockerfile_copies_old_name/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h24/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h24/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sample_log_renamed_by_refresh_script_dockerfile_copies_old_name/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:46221/v1 --model-name sim-policy
echo '== profile'
/work/wt-h24/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h24/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_sample_log_renamed_by_refresh_script_dockerfile_copies_old_name/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
