#!/bin/bash
# answers live under /app/output (team convention since v3)
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(tr -d "[:space:]" < /app/output/total.txt 2>/dev/null)" = "435"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
