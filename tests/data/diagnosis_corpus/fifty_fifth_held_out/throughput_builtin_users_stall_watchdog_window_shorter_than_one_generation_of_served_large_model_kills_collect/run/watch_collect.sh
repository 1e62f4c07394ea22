#!/bin/bash
# watch_collect.sh PID FILE: kill collect when FILE has not grown for STALL_S seconds (it hung twice in May)
STALL_S=${STALL_S:-5}
pid=$1; file=$2; last=-1; still=0
while kill -0 "$pid" 2>/dev/null; do
  size=$(stat -c %s "$file" 2>/dev/null || echo 0)
  if [ "$size" = "$last" ]; then still=$((still + 1)); else still=0; last=$size; fi
  if [ "$still" -ge "$STALL_S" ]; then
    echo "watchdog: $file has not grown for ${STALL_S}s: collect looks hung, killing it (pid $pid)"
    kill "$pid"; exit 1
  fi
  sleep 1
done
