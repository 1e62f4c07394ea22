#!/bin/bash
# serve.sh: the team's model server for the weekly eval: serves the newest checkpoint of the training run
CKPT=$(ls -td /tmp/ho-model_serving_builti-c8jef4o5/checkpoints/step_* | head -n 1)
echo "serving $CKPT"
exec /work/wt-h52/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_builti-c8jef4o5/serve-ready --checkpoint $CKPT --latency-ms 30
