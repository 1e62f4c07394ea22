#!/bin/bash
# serve.sh CHECKPOINTS PORT: serve the newest checkpoint of the training run
CKPTS=$1
PORT=$2
latest=$(ls -td "$CKPTS"/step_* | head -1)
echo "serve.sh: serving $latest on port $PORT"
exec /work/wt-h42/.venv/bin/gym-pipeline serve-policy --port $PORT --checkpoint "$latest" --latency-ms 30
