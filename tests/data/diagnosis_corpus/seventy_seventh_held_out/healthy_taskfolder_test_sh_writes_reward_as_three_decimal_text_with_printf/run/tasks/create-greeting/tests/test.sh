#!/bin/bash
# Writes the score to /logs/verifier/reward.txt (three decimals, like the team's other graders).
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  printf '%.3f\n' 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  printf '%.3f\n' 0 > /logs/verifier/reward.txt
fi
