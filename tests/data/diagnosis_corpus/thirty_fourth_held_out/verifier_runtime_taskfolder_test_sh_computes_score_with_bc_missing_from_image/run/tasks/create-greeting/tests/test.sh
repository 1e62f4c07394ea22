#!/bin/bash
# Writes the share of passed checks (0-1) to /logs/verifier/reward.txt.
cd /app
PASSED=0
TOTAL=2
test -f /app/hello.txt && PASSED=$((PASSED + 1))
test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!" && PASSED=$((PASSED + 1))
echo "passed $PASSED of $TOTAL"
echo "scale=2; $PASSED / $TOTAL" | bc > /logs/verifier/reward.txt
