#!/bin/bash
# serve.sh CHECKPOINT: the model server, on $PORT when set (to run a second one by hand), else the eval's MODEL_PORT
source /work/wt-h43/tests/data/diagnosis_corpus/held_out/model_serving_gym_serve_script_port_override_picks_up_port_exported_by_notebook_profile/run/eval_settings.sh
PORT=${PORT:-$MODEL_PORT}
echo "serve.sh: serving $1 on port $PORT"
exec /work/wt-h43/.venv/bin/gym-pipeline serve-policy --port $PORT --checkpoint "$1" --latency-ms 30
