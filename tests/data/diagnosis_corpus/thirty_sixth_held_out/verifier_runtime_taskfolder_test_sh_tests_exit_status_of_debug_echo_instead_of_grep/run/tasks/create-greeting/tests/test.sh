#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
grep -qx 'Hello, Gym!' /app/hello.txt 2>/dev/null
echo "checked hello.txt: '$(cat /app/hello.txt 2>/dev/null)'"   # debugging aid
if [ $? -eq 0 ]; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
