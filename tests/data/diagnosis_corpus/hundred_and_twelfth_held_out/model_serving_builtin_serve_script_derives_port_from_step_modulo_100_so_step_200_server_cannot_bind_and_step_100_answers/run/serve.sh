#!/bin/bash
# serve.sh STEP: serve ckpts/step_STEP on its own port (18400 + STEP % 100, so that several steps can be served)
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/model_serving_builtin_serve_script_derives_port_from_step_modulo_100_so_step_200_server_cannot_bind_and_step_100_answers/run
STEP=$1
PORT=$((18400 + STEP % 100))
nohup /work/h112/.venv/bin/gym-pipeline serve-policy --port $PORT --ready-file logs/ready_step_$STEP --checkpoint ckpts/step_$STEP \
  --latency-ms 20 >> logs/model_server_step_$STEP.log 2>&1 &
sleep 5
echo "http://127.0.0.1:$PORT/v1" > model_url.txt
echo "serving ckpts/step_$STEP on http://127.0.0.1:$PORT/v1"
