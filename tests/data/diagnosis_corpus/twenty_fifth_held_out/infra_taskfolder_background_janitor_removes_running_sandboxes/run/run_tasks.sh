#!/bin/bash
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/infra_taskfolder_background_janitor_removes_running_sandboxes/run
echo '== janitor: removing the sandboxes crashed runs of this folder left behind, every 2 s'
RUNS=/tmp/ho-infra_taskfolder_bac-ibbf94x3/runs/step_0200/terminal_tasks
mkdir -p logs
( while true; do docker rm -f $(docker ps -aq --filter label=gym_pipeline.run_dir=$RUNS) 2>/dev/null; sleep 2; done ) >> logs/janitor.log 2>&1 &
JANITOR=$!
trap 'kill $JANITOR' EXIT
echo '== materialize'
/work/wt-h25/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/infra_taskfolder_background_janitor_removes_running_sandboxes/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h25/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/infra_taskfolder_background_janitor_removes_running_sandboxes/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:40977/v1 --model-name sim-policy
echo '== profile'
/work/wt-h25/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h25/tests/data/diagnosis_corpus/held_out/infra_taskfolder_background_janitor_removes_running_sandboxes/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
