#!/bin/bash
# model server (from the resilience drill of last week)
/work/wt-h19/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_builti-csxrz1a2/model_url --checkpoint /tmp/ho-model_serving_builti-csxrz1a2/checkpoints/step_0200 --latency-ms 20 --fault-rate 0.7 --fault-kinds 5xx,drop --fault-seed 11
