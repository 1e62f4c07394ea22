#!/bin/bash
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/healthy_taskfolder_task_toml_carries_team_owner_and_ticket_keys_that_the_loader_reports_as_ignored/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h91/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/healthy_taskfolder_task_toml_carries_team_owner_and_ticket_keys_that_the_loader_reports_as_ignored/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h91/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/healthy_taskfolder_task_toml_carries_team_owner_and_ticket_keys_that_the_loader_reports_as_ignored/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:34807/v1 --model-name sim-policy
echo '== profile'
/work/wt-h91/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/healthy_taskfolder_task_toml_carries_team_owner_and_ticket_keys_that_the_loader_reports_as_ignored/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
