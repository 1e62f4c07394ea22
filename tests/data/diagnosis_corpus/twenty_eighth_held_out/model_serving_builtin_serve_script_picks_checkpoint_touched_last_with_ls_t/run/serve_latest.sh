#!/bin/bash
# usage: serve_latest.sh READY_FILE   serves the newest checkpoint of the training run
CKPT=$(ls -td /tmp/ho-model_serving_builti-tb_ksku2/checkpoints/step_* | head -1)
echo "serving $CKPT"
exec /work/wt-h28/.venv/bin/gym-pipeline serve-policy --port 0 --checkpoint $CKPT --ready-file $1 --latency-ms 20
