#!/bin/bash
cd /work/wt-h44/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_model_server_answers_some_requests_with_5xx_that_the_collector_retries/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h44/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h44/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_model_server_answers_some_requests_with_5xx_that_the_collector_retries/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h44/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h44/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_model_server_answers_some_requests_with_5xx_that_the_collector_retries/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:41879/v1 --model-name sim-policy
echo '== profile'
/work/wt-h44/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h44/tests/data/diagnosis_corpus/held_out/healthy_taskfolder_model_server_answers_some_requests_with_5xx_that_the_collector_retries/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
