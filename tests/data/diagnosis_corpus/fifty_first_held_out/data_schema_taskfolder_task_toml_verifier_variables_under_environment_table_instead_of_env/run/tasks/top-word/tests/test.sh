#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected word comes from task.toml, so the refreshed text only needs a task.toml edit.
cd /app
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "$EXPECTED_WORD"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (got '$(cat /app/top.txt 2>/dev/null)', expected '$EXPECTED_WORD')"
  echo 0 > /logs/verifier/reward.txt
fi
