#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
set -e
# debug output only when VERIFIER_DEBUG is set
debug() { [ -n "${VERIFIER_DEBUG:-}" ] && echo "debug: $*"; }
cd /app
debug "count.txt holds: $(cat /app/count.txt 2>/dev/null)"
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
