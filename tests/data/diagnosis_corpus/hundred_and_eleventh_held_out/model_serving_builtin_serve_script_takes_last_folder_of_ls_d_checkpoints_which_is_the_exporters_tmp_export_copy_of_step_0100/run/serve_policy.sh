#!/bin/bash
# serve the newest checkpoint of this training run
cd "$(dirname "$0")"
CKPT=$(ls -d checkpoints/*/ | tail -1)
echo "== serving $CKPT"
nohup /work/h111/.venv/bin/gym-pipeline serve-policy --checkpoint "$CKPT" --port 56707 --latency-ms 20 --ready-file logs/policy.url > logs/model_server.log 2>&1 &
echo $! > logs/model_server.pid
for i in $(seq 60); do test -s logs/policy.url && break; sleep 0.5; done
echo "== ready: $(cat logs/policy.url)"
