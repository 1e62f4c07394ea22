#!/bin/bash
# baseline: step_0100
/work/wt-h21/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_builti-j15_d2ax/model_url --checkpoint /tmp/ho-model_serving_builti-j15_d2ax/checkpoints/step_0100 --latency-ms 20
