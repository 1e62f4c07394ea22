#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# the most frequent word, as in the sample output of the task's README
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "The"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
