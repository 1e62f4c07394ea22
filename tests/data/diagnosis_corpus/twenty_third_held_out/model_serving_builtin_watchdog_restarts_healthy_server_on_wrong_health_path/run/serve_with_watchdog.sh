#!/bin/bash
# keep the model server up: restart it whenever its health check fails
PORT=$1
CKPT=$2
MODEL_URL=http://127.0.0.1:$PORT/v1
start() {
  /work/wt-h23/.venv/bin/gym-pipeline serve-policy --port $PORT --checkpoint $CKPT --latency-ms 400 &
  PID=$!
}
start
sleep 4
while true; do
  if ! curl -sf --max-time 2 $MODEL_URL/health > /dev/null; then
    echo "$(date +%T) health check of $MODEL_URL/health failed: restarting the model server (pid $PID)"
    kill $PID; wait $PID
    start
    sleep 4
  fi
  sleep 1
done
