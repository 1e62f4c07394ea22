#!/bin/bash
# relaunch of the model server (from the shell history)
/work/wt-h18/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_stage_-gu42vws6/model_url --checkpoint /tmp/ho-model_serving_stage_-gu42vws6/checkpoints/step_0200 --latency-ms 30000
