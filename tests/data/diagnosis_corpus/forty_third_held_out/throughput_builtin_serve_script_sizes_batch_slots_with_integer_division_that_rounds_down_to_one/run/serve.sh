#!/bin/bash
# serve.sh CHECKPOINT PORT: the team's model server; batch slots sized from the KV-cache budget of the node
KV_CACHE_GB=7        # what is left on this node after the weights
GB_PER_SEQUENCE=4    # long-context sequences
SLOTS=$(( KV_CACHE_GB / GB_PER_SEQUENCE ))
echo "serve.sh: $SLOTS batch slots"
exec /work/wt-h43/.venv/bin/gym-pipeline serve-policy --port $2 --checkpoint "$1" --latency-ms 400 --max-running $SLOTS
