#!/bin/bash
# serve.sh: start this week's policy server in the background and write its URL to model.env for the eval
trap 'kill 0' EXIT   # from dev_serve.sh: never leave child processes behind
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/model_serving_gym_serve_script_exit_trap_kill_zero_takes_down_the_policy_server_it_just_started/run
exec >> logs/serve.log 2>&1
rm -f policy_url.txt model.env
/work/wt-h80/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file policy_url.txt --checkpoint /tmp/ho-model_serving_gym_se-ymvu1zev/checkpoints/step_0200 --latency-ms 30 >> logs/model_server.log 2>&1 &
for i in $(seq 1 60); do [ -s policy_url.txt ] && break; sleep 0.5; done
echo "MODEL_URL=$(cat policy_url.txt)" > model.env
echo "policy server up at $(cat policy_url.txt), pid $!"
