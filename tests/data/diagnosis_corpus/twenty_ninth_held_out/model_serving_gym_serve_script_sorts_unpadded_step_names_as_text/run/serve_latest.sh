#!/bin/bash
# usage: serve_latest.sh READY_FILE   serves the newest checkpoint of the training run
CKPT=/tmp/ho-model_serving_gym_se-6iqo3ve0/training_run/checkpoints/$(ls /tmp/ho-model_serving_gym_se-6iqo3ve0/training_run/checkpoints | sort | tail -1)
echo "serving $CKPT"
exec /work/wt-h29/.venv/bin/gym-pipeline serve-policy --port 0 --checkpoint $CKPT --ready-file $1 --latency-ms 30
