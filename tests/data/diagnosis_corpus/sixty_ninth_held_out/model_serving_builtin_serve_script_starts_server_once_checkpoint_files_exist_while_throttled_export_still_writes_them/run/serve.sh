#!/bin/bash
# serve.sh DEST READY_FILE: start the model server on DEST as soon as the checkpoint is on the serving disk
DEST=$1
until [ -f "$DEST/config.json" ] && [ -f "$DEST/knowledge.jsonl" ]; do sleep 0.2; done
echo "checkpoint files present in $DEST: starting the server"
exec /work/wt-h69/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file "$2" --checkpoint "$DEST" --latency-ms 20
