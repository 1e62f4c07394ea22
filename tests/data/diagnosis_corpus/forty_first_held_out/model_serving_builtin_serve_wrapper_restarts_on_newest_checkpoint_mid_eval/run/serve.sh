#!/bin/bash
# serve.sh CHECKPOINTS PORT: serve the newest checkpoint of the training run; when the trainer saves a newer one,
# restart on it (the team playground always talks to the latest model)
CKPTS=$1
PORT=$2
current=""
while true; do
  latest=$(ls -d "$CKPTS"/step_* 2>/dev/null | sort | tail -1)
  if [ -n "$latest" ] && [ "$latest" != "$current" ]; then
    if [ -n "$pid" ]; then echo "serve.sh: new checkpoint $latest, restarting the server"; kill $pid; wait $pid; fi
    echo "serve.sh: serving $latest on port $PORT"
    /work/wt-h41/.venv/bin/gym-pipeline serve-policy --port $PORT --checkpoint "$latest" --latency-ms 300 &
    pid=$!
    current=$latest
  fi
  sleep 1
done
