#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# the greeting must be created by the agent's user, not copied in by root (checked in the devcontainer)
cd /app
owner=$(stat -c %U /app/hello.txt 2>/dev/null)
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!" && test "$owner" = "ubuntu"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: content '$(cat /app/hello.txt 2>/dev/null)', owner $owner"
  echo 0 > /logs/verifier/reward.txt
fi
