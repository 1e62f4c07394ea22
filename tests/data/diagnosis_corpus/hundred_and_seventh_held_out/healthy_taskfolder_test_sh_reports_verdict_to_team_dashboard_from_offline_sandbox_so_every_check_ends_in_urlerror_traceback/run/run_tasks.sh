#!/bin/bash
cd /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/healthy_taskfolder_test_sh_reports_verdict_to_team_dashboard_from_offline_sandbox_so_every_check_ends_in_urlerror_traceback/run
echo '== weekly taskset run'
echo '== materialize'
/work/h107/.venv/bin/gym-pipeline stage materialize --sweep-config /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/healthy_taskfolder_test_sh_reports_verdict_to_team_dashboard_from_offline_sandbox_so_every_check_ends_in_urlerror_traceback/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/h107/.venv/bin/gym-pipeline stage collect --sweep-config /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/healthy_taskfolder_test_sh_reports_verdict_to_team_dashboard_from_offline_sandbox_so_every_check_ends_in_urlerror_traceback/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41713/v1 --model-name sim-policy
echo '== profile'
/work/h107/.venv/bin/gym-pipeline stage profile --sweep-config /work/h107/tests/data/diagnosis_corpus/hundred_and_seventh_held_out/healthy_taskfolder_test_sh_reports_verdict_to_team_dashboard_from_offline_sandbox_so_every_check_ends_in_urlerror_traceback/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
