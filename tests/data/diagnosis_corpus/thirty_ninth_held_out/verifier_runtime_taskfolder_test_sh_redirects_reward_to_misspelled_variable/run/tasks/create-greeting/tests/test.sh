#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
REWARD_FILE=/logs/verifier/reward.txt
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > $REWARD_FLIE
else
  echo "FAIL"
  echo 0 > $REWARD_FLIE
fi
