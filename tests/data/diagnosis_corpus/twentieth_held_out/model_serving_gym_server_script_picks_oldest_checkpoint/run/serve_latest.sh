#!/bin/bash
# serve the newest checkpoint of the run
CKPT=$(ls -d /tmp/ho-model_serving_gym_se-brjjgkos/checkpoints/step_* | head -1)
echo "serving $CKPT"
/work/wt-h20/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_gym_se-brjjgkos/model_url --checkpoint $CKPT --latency-ms 30
