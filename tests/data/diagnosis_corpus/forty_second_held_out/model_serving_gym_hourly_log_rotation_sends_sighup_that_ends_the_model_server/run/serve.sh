#!/bin/bash
# serve.sh CHECKPOINT PORT: start the model server in the background, its log in logs/model_server.log
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/model_serving_gym_hourly_log_rotation_sends_sighup_that_ends_the_model_server/run
/work/wt-h42/.venv/bin/gym-pipeline serve-policy --port $2 --checkpoint "$1" --latency-ms 300 >> logs/model_server.log 2>&1 &
echo $! > model_server.pid
echo "model server started (pid $(cat model_server.pid)) on port $2"
