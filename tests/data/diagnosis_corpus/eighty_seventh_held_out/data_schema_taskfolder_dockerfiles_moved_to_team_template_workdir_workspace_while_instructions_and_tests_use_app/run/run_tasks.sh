#!/bin/bash
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/data_schema_taskfolder_dockerfiles_moved_to_team_template_workdir_workspace_while_instructions_and_tests_use_app/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h87/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/data_schema_taskfolder_dockerfiles_moved_to_team_template_workdir_workspace_while_instructions_and_tests_use_app/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h87/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/data_schema_taskfolder_dockerfiles_moved_to_team_template_workdir_workspace_while_instructions_and_tests_use_app/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:43575/v1 --model-name sim-policy
echo '== profile'
/work/wt-h87/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/data_schema_taskfolder_dockerfiles_moved_to_team_template_workdir_workspace_while_instructions_and_tests_use_app/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
