#!/bin/bash
# Writes the reward as JSON to /logs/verifier/reward.json when the task is done.
cd /app
if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "2.7.1"; then
  echo "PASS"
  echo '{reward: 1}' > /logs/verifier/reward.json
else
  echo "FAIL"
  echo '{reward: 0}' > /logs/verifier/reward.json
fi
