#!/bin/bash
cd /work/wt-h41/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_samples_docker_events_for_three_seconds_under_timeout/run
echo '== container activity on this node in the last minute (for the run notes)'
timeout 3 docker events --since 1m --filter type=container --format '{{.Time}} {{.Action}} {{.Actor.ID}}' | tail -5; echo "docker events exit ${PIPESTATUS[0]}"
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h41/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_samples_docker_events_for_three_seconds_under_timeout/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h41/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_samples_docker_events_for_three_seconds_under_timeout/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41593/v1 --model-name sim-policy
echo '== profile'
/work/wt-h41/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h41/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_run_script_samples_docker_events_for_three_seconds_under_timeout/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
