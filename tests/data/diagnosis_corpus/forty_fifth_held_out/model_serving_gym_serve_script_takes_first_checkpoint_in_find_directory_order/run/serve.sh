#!/bin/bash
# serve.sh PORT: serve the training run's checkpoint (the trainer keeps one; `find` because ls breaks on odd names)
CKPT=$(find /tmp/ho-model_serving_gym_se-uvxbpwt5/training/exp12/checkpoints -mindepth 1 -maxdepth 1 -name 'step_*' | head -n 1)
echo "serve.sh: serving $CKPT"
exec /work/wt-h45/.venv/bin/gym-pipeline serve-policy --port $1 --checkpoint "$CKPT" --latency-ms 30
