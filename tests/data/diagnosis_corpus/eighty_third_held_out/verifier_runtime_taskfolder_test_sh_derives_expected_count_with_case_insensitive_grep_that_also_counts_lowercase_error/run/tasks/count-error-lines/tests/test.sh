#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected count is derived from the log itself (so the test survives log refreshes).
cd /app
expected="$(grep -ci error /app/server.log)"
got="$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)"
echo "expected $expected, got '$got'"
if test "$got" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
