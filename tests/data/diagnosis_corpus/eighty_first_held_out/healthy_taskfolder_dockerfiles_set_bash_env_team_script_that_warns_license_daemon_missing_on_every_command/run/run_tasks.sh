#!/bin/bash
cd /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/healthy_taskfolder_dockerfiles_set_bash_env_team_script_that_warns_license_daemon_missing_on_every_command/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h81/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/healthy_taskfolder_dockerfiles_set_bash_env_team_script_that_warns_license_daemon_missing_on_every_command/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h81/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/healthy_taskfolder_dockerfiles_set_bash_env_team_script_that_warns_license_daemon_missing_on_every_command/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:36755/v1 --model-name sim-policy
echo '== profile'
/work/wt-h81/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/healthy_taskfolder_dockerfiles_set_bash_env_team_script_that_warns_license_daemon_missing_on_every_command/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
