#!/bin/bash
# serve the candidate for the weekly eval (flags shared with the chat UI deployment)
cd "$(dirname "$0")"
source deploy/chat_ui.env
echo "== serving checkpoints/step_0200 with $SERVE_FLAGS"
nohup /work/h113/.venv/bin/gym-pipeline serve-policy --checkpoint checkpoints/step_0200 --port 51309 --latency-ms 800 $SERVE_FLAGS --ready-file logs/policy.url > logs/model_server.log 2>&1 &
echo $! > logs/model_server.pid
for i in $(seq 60); do test -s logs/policy.url && break; sleep 0.5; done
echo "== ready: $(cat logs/policy.url)"
