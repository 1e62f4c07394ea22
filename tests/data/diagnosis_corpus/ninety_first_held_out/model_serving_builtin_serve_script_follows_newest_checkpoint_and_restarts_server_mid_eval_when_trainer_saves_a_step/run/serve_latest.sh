#!/bin/bash
# serve_latest.sh: keep the policy server on the trainer's newest checkpoint (restart it when a new one lands)
CKPTS=/tmp/ho-model_serving_builti-_lns53h6/trainer_out/run7
PORT=35041
newest() { ls -d $CKPTS/step_* | sort | tail -1; }
start() {
  rm -f ready.url
  /work/wt-h91/.venv/bin/gym-pipeline serve-policy --port $PORT --ready-file ready.url --checkpoint $1 --latency-ms 1000 >> logs/model_server.log 2>&1 &
  SERVER=$!
  for i in $(seq 1 60); do test -s ready.url && break; sleep 0.25; done
  echo "$(date +%s.%N) serving $1 (pid $SERVER)"
}
CURRENT=$(newest)
start $CURRENT
trap 'kill $SERVER; exit 0' TERM INT
while sleep 1; do
  NEW=$(newest)
  if [ "$NEW" != "$CURRENT" ]; then
    echo "$(date +%s.%N) new checkpoint $NEW: restarting the server"
    kill $SERVER; wait $SERVER
    CURRENT=$NEW
    start $CURRENT
  fi
done
