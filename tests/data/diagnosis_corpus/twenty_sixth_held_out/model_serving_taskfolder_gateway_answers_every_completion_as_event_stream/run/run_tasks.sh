#!/bin/bash
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_gateway_answers_every_completion_as_event_stream/run
echo '== weekly taskset run'
echo '== materialize'
/work/wt-h26/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h26/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_gateway_answers_every_completion_as_event_stream/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h26/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h26/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_gateway_answers_every_completion_as_event_stream/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:58869/v1 --model-name sim-policy
echo '== profile'
/work/wt-h26/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h26/tests/data/diagnosis_corpus/held_out/model_serving_taskfolder_gateway_answers_every_completion_as_event_stream/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
