#!/bin/bash
# serve.sh: the team's model server; serves $CKPT (a step folder name), by default the run's release step
CKPT=${CKPT:-step_0200}
echo "serving $CKPT"
exec /work/wt-h54/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_builti-1f37t4w5/serve-ready --checkpoint /tmp/ho-model_serving_builti-1f37t4w5/checkpoints/$CKPT --latency-ms 20
