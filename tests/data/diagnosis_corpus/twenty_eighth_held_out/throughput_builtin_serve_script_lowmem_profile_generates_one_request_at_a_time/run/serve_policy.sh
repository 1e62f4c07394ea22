#!/bin/bash
# usage: serve_policy.sh CHECKPOINT READY_FILE    (PROFILE=lowmem on shared nodes: one sequence at a time)
PROFILE=lowmem
case $PROFILE in
  lowmem) EXTRA="--max-running 1" ;;
  *) EXTRA="" ;;
esac
exec /work/wt-h28/.venv/bin/gym-pipeline serve-policy --port 0 --checkpoint $1 --ready-file $2 --latency-ms 1000 $EXTRA
