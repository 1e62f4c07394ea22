#!/bin/bash
cd /work/wt-h49/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_dockerfiles_end_with_user_nobody_from_service_template/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h49/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h49/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_dockerfiles_end_with_user_nobody_from_service_template/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h49/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h49/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_dockerfiles_end_with_user_nobody_from_service_template/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:38065/v1 --model-name sim-policy
echo '== profile'
/work/wt-h49/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h49/tests/data/diagnosis_corpus/held_out/data_schema_taskfolder_dockerfiles_end_with_user_nobody_from_service_template/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
