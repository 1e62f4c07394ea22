#!/bin/bash
# restart_server.sh CKPT: (re)start the eval model server on port 36495 with checkpoint CKPT
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/model_serving_builtin_restart_script_kills_pid_of_bash_wrapper_so_last_weeks_server_keeps_the_port_and_serves_step_900/run
CKPT=$1
if [ -f logs/model_server.pid ]; then
  echo "stopping old server (pid $(cat logs/model_server.pid))"
  kill $(cat logs/model_server.pid) 2>/dev/null
  sleep 2
fi
nohup bash -c "/work/h108/.venv/bin/gym-pipeline serve-policy --port 36495 --checkpoint $CKPT --latency-ms 20 >> logs/model_server.log 2>&1; echo \"model server exited (\$?)\" >> logs/model_server.log" > /dev/null 2>&1 &
echo $! > logs/model_server.pid
for i in $(seq 60); do curl -s -o /dev/null http://127.0.0.1:36495/v1/models && break; sleep 1; done
echo "serving $CKPT on http://127.0.0.1:36495"
