#!/bin/bash
cd /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/model_serving_taskfolder_gateway_body_size_cap_from_chat_ui_refuses_growing_agent_conversations/run
echo '== weekly taskset run (through the gateway)'
echo '== materialize'
/work/wt-h57/.venv/bin/gym-pipeline stage materialize --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/model_serving_taskfolder_gateway_body_size_cap_from_chat_ui_refuses_growing_agent_conversations/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
echo '== collect'
/work/wt-h57/.venv/bin/gym-pipeline stage collect --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/model_serving_taskfolder_gateway_body_size_cap_from_chat_ui_refuses_growing_agent_conversations/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14 --model-url http://127.0.0.1:49367/v1 --model-name sim-policy
echo '== profile'
/work/wt-h57/.venv/bin/gym-pipeline stage profile --sweep-config /work/wt-h57/tests/data/diagnosis_corpus/fifty_seventh_held_out/model_serving_taskfolder_gateway_body_size_cap_from_chat_ui_refuses_growing_agent_conversations/run/sweep.yaml --checkpoint step_0200 --env terminal_tasks --code-version v14
