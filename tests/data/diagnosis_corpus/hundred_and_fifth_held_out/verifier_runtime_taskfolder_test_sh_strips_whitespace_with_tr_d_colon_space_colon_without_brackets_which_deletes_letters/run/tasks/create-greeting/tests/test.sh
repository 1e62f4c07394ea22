#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# ignore stray whitespace (agents often add a trailing newline or spaces)
got="$(tr -d ':space:' < /app/hello.txt 2>/dev/null)"
echo "got: $got"
if test "$got" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
