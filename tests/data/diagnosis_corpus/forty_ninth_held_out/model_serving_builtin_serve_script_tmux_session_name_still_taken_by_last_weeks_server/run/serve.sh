#!/bin/bash
# serve.sh: the model server in a detached tmux session named 'policy' (attach with `tmux -L evalnode a -t policy`)
CKPT=/tmp/ho-model_serving_builti-cgn73ggk/checkpoints/step_0200
tmux -L evalnode new-session -d -s policy "/work/wt-h49/.venv/bin/gym-pipeline serve-policy --port 50083 --checkpoint $CKPT --latency-ms 20"
echo "started the policy server on $CKPT (port 50083)"
sleep 3
curl -s http://127.0.0.1:50083/v1/models; echo
