#!/bin/bash
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_gateway_forwards_only_last_message_of_conversation/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h28/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h28/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_gateway_forwards_only_last_message_of_conversation/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h28/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h28/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_gateway_forwards_only_last_message_of_conversation/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:54689/v1 --model-name sim-policy
echo '== profile'
/work/wt-h28/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h28/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_gateway_forwards_only_last_message_of_conversation/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
