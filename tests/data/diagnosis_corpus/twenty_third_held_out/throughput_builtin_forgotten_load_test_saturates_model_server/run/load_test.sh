#!/bin/bash
# load test of the model server: WORKERS parallel clients, forever (stop with kill)
URL=$1
WORKERS=${2:-8}
BODY='{"model": "sim-policy", "messages": [{"role": "user", "content": "What is the capital of France?"}]}'
for w in $(seq $WORKERS); do
  while true; do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d "$BODY" $URL/chat/completions)
    echo "worker $w: $code"
  done &
done
wait
