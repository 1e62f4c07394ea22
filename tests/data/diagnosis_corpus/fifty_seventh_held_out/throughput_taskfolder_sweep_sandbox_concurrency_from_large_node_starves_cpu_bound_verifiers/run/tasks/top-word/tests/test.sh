#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected word is recomputed from /app/text.txt by tests/reference.py.
cd /app
expected=$(python3 /tests/reference.py)
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (expected '$expected')"
  echo 0 > /logs/verifier/reward.txt
fi
