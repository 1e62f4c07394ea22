#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The check runs under `timeout 10`: a `cat` of a FIFO left by an agent hung the verifier last month.
cd /app
expected="the"
if timeout 10 bash -c 'test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "$expected"'; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (top.txt: $(head -c 40 /app/top.txt 2>/dev/null))"
  echo 0 > /logs/verifier/reward.txt
fi
