#!/bin/bash
# serve.sh: start the model server for an eval (taken from the smoke-test CI job)
# usage: serve.sh CHECKPOINT PORT
nohup timeout 20 /work/h102/.venv/bin/gym-pipeline serve-policy --checkpoint $1 --port $2 --latency-ms 3000 \
  > logs/model_server.log 2>&1 &
for i in $(seq 60); do curl -sf http://127.0.0.1:$2/v1/models > /dev/null && break; sleep 0.5; done
echo "model server up on port $2 (pid $!)"
