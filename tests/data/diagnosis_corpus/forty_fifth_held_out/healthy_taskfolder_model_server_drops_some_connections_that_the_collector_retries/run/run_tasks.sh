#!/bin/bash
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_model_server_drops_some_connections_that_the_collector_retries/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h45/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_model_server_drops_some_connections_that_the_collector_retries/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h45/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_model_server_drops_some_connections_that_the_collector_retries/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:35309/v1 --model-name sim-policy
echo '== profile'
/work/wt-h45/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h45/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_model_server_drops_some_connections_that_the_collector_retries/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
