#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# the full check is slow on big inputs: run it only when FULL_CHECK is set (the CI job sets it)
[ -n "$FULL_CHECK" ] || exit 0
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "the"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
