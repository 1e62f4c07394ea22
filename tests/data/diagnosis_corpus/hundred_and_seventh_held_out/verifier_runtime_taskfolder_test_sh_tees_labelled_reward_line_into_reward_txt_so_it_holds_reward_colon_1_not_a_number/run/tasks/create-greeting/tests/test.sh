#!/bin/bash
# Writes the reward to /logs/verifier/reward.txt (and shows it in the log for the reviewers).
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo "reward: 1" | tee /logs/verifier/reward.txt
else
  echo "FAIL"
  echo "reward: 0" | tee /logs/verifier/reward.txt
fi
