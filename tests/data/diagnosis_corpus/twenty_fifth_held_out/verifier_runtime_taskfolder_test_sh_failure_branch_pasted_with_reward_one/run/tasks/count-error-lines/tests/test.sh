#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# (now also says what it found, for the weekly report)
cd /app
got="$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)"
if test "$got" = "3"; then
  echo "PASS: count.txt holds $got"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: count.txt holds '$got', expected 3"
  echo 1 > /logs/verifier/reward.txt
fi
