#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected sum comes from task.toml's [verifier.env] (one test.sh for every sales file).
set -u
cd /app
expected="$EXPECTED_SUM"
if test "$(tr -d "[:space:]" < /app/total.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (expected $expected)"
  echo 0 > /logs/verifier/reward.txt
fi
