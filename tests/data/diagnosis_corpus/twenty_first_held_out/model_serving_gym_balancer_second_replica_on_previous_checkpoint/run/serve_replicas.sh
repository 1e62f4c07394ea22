#!/bin/bash
# two replicas of the model behind balancer.py
CKPTS=(/tmp/ho-model_serving_gym_ba-9ovb_0it/checkpoints/step_0200 /tmp/ho-model_serving_gym_ba-9ovb_0it/checkpoints/step_0100)
for i in 0 1; do
  /work/wt-h21/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_gym_ba-9ovb_0it/replica_$i.url --checkpoint ${CKPTS[$i]} --latency-ms 30 > replica_$i.log 2>&1 &
done
wait
