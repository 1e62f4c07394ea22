#!/bin/bash
# model server for the terminal-agent sweep (from the math-sft serving script)
/work/wt-h20/.venv/bin/gym-pipeline serve-policy --port 0 --ready-file /tmp/ho-model_serving_taskfo-z69v9myy/model_url --checkpoint /tmp/ho-model_serving_taskfo-z69v9myy/math-sft/checkpoints/step_0200 --latency-ms 30
