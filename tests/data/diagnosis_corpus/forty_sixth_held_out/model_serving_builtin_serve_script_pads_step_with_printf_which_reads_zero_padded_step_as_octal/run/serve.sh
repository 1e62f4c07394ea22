#!/bin/bash
# serve.sh STEP PORT: serve checkpoints/step_NNNN of the training run (the step zero-padded to four digits)
CKPT=/tmp/ho-model_serving_builti-m_wwm8l_/training/exp21/checkpoints/$(printf 'step_%04d' "$1")
echo "serve.sh: serving $CKPT"
exec /work/wt-h46/.venv/bin/gym-pipeline serve-policy --port $2 --checkpoint "$CKPT" --latency-ms 30
