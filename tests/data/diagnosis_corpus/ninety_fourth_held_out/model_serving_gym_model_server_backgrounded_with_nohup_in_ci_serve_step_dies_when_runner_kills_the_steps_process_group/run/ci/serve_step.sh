#!/bin/bash
# ci/serve_step.sh (CI step "serve"): start this week's checkpoint for the eval step that follows
cd /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/model_serving_gym_model_server_backgrounded_with_nohup_in_ci_serve_step_dies_when_runner_kills_the_steps_process_group/run
rm -f server_url.txt
nohup /work/h94/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/model_serving_gym_model_server_backgrounded_with_nohup_in_ci_serve_step_dies_when_runner_kills_the_steps_process_group/run/server_url.txt --checkpoint /tmp/ho-model_serving_gym_mo-26euzczc/checkpoints/step_0200 --latency-ms 30 \
  > /work/h94/tests/data/diagnosis_corpus/ninety_fourth_held_out/model_serving_gym_model_server_backgrounded_with_nohup_in_ci_serve_step_dies_when_runner_kills_the_steps_process_group/run/logs/model_server.log 2>&1 &
echo "model server starting (pid $!)"
for i in $(seq 60); do [ -s server_url.txt ] && break; sleep 1; done
cp server_url.txt model_url.txt  # the artifact the eval step reads
echo "model server up at $(cat model_url.txt)"
