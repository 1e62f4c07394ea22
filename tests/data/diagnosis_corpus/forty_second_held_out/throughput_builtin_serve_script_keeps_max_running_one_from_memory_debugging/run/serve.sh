#!/bin/bash
# serve.sh CHECKPOINT PORT: the team's model server
# --max-running 1: from the memory debugging in March (one sequence at a time keeps the KV cache small)
exec /work/wt-h42/.venv/bin/gym-pipeline serve-policy --port $2 --checkpoint "$1" --latency-ms 400 --max-running 1
