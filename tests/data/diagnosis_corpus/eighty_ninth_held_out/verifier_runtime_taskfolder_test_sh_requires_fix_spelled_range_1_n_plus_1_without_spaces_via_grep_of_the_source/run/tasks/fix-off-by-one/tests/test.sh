#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# review note (2026-11): accept only the one-line range fix, not a rewrite of the script
echo "range line now: $(grep -n 'range(' /app/sum_to.py)"
if grep -qF 'range(1, n+1)' /app/sum_to.py && test "$(python3 /app/sum_to.py 10)" = "55"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
