#!/bin/bash
# serve.sh CHECKPOINT PORT: the model server, with the queue settings of the hosted-API profile
# (a bounded queue: requests beyond 2 running and 2 waiting are refused with 429, as the hosted API does)
exec /work/wt-h44/.venv/bin/gym-pipeline serve-policy --port $2 --checkpoint "$1" --latency-ms 300 --max-running 2 --max-waiting 2
