#!/bin/bash
# serve.sh: the model server of the weekly eval; its URL goes to ~/policy.url
CKPT=${1:?checkpoint}
echo "serving $CKPT"
exec /work/wt-h55/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file $HOME/policy.url --checkpoint /tmp/ho-model_serving_builti-c1c6f_ed/checkpoints/$CKPT --latency-ms 20
