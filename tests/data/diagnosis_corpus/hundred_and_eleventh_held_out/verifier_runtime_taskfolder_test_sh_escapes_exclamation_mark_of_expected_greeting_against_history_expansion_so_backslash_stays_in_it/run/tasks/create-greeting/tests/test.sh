#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
expected="Hello, Gym\!"   # escape the ! (history expansion)
got=$(cat /app/hello.txt 2>/dev/null)
if test "$got" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: got '$got', expected '$expected'"
  echo 0 > /logs/verifier/reward.txt
fi
