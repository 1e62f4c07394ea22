#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
PATH=/app/version.txt        # the file the agent must write
EXPECTED=2.7.1
if test "$(tr -d "[:space:]" < "$PATH" 2>&1)" = "$EXPECTED"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: $PATH holds '$(tr -d "[:space:]" < "$PATH" 2>&1)', expected $EXPECTED"
  echo 0 > /logs/verifier/reward.txt
fi
