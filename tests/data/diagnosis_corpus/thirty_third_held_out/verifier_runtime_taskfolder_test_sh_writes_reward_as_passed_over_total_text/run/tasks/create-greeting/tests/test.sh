#!/bin/bash
# Writes the share of passed checks to /logs/verifier/reward.txt.
cd /app
PASSED=0
TOTAL=1
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS: greeting"
  PASSED=$((PASSED + 1))
else
  echo "FAIL: greeting"
fi
echo "$PASSED/$TOTAL" > /logs/verifier/reward.txt
