#!/bin/bash
# serve.sh: serve the newest checkpoint of the training run
CKPT=$(ls -d ckpts/step_* | tail -n 1)
echo "serving $CKPT"
rm -f logs/model_url
/work/h106/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file logs/model_url --checkpoint $CKPT --latency-ms 20 > logs/model_server.log 2>&1 &
echo $! > logs/model_server.pid
for i in $(seq 60); do [ -s logs/model_url ] && break; sleep 1; done
echo "model server up at $(cat logs/model_url)"
