#!/bin/bash
cd /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/data_schema_taskfolder_dockerignore_from_service_template_excludes_log_files_so_server_log_never_reaches_the_build/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h81/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/data_schema_taskfolder_dockerignore_from_service_template_excludes_log_files_so_server_log_never_reaches_the_build/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h81/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/data_schema_taskfolder_dockerignore_from_service_template_excludes_log_files_so_server_log_never_reaches_the_build/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:38603/v1 --model-name sim-policy
echo '== profile'
/work/wt-h81/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/data_schema_taskfolder_dockerignore_from_service_template_excludes_log_files_so_server_log_never_reaches_the_build/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
