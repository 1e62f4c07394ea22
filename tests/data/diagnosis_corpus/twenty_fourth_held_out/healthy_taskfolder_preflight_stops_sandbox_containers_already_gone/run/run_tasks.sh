#!/bin/bash
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_stops_sandbox_containers_already_gone/run
echo '== removing the sandboxes of the interrupted run'
docker stop nightly-sandbox-count-error-lines-0 nightly-sandbox-json-version-1
docker rm nightly-sandbox-count-error-lines-0 nightly-sandbox-json-version-1
echo '== materialize'
/work/wt-h24/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h24/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_stops_sandbox_containers_already_gone/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h24/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h24/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_stops_sandbox_containers_already_gone/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:45933/v1 --model-name sim-policy
echo '== profile'
/work/wt-h24/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h24/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_preflight_stops_sandbox_containers_already_gone/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
