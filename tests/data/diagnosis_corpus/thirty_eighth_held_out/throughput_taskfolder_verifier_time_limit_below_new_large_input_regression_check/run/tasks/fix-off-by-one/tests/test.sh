#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# regression check on a large N too (issue #31)
if test "$(python3 /app/sum_to.py 10)" = "55" && test "$(python3 /app/sum_to.py 1)" = "1" \
   && test "$(python3 /app/sum_to.py 300000000)" = "45000000150000000"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
