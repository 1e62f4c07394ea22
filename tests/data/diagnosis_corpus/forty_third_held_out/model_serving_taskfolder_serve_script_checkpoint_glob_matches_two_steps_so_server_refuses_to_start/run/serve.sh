#!/bin/bash
# serve.sh CHECKPOINTS PORT: serve the step-2xx checkpoint of the training run (the one the weekly eval is for)
exec /work/wt-h43/.venv/bin/gym-pipeline serve-policy --port $2 --checkpoint $1/step_02* --latency-ms 30
