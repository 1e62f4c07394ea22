#!/bin/bash
# Writes the reward to /logs/verifier/reward.txt: one point per check passed.
cd /app
# check 1: the count
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS: count"
  echo 1 >> /logs/verifier/reward.txt
else
  echo "FAIL: count"
  echo 0 >> /logs/verifier/reward.txt
fi
# check 2: count.txt is a single line
if test "$(wc -l < /app/count.txt 2>/dev/null)" = "1"; then
  echo "PASS: one line"
  echo 1 >> /logs/verifier/reward.txt
else
  echo "FAIL: not one line"
  echo 0 >> /logs/verifier/reward.txt
fi
