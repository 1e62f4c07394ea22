#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# ignore the trailing newline editors add
got=$(cat /app/hello.txt 2>/dev/null | tr -d '[:space:]')
if test "$got" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: got '$got'"
  echo 0 > /logs/verifier/reward.txt
fi
