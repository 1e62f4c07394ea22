#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
# stricter: byte for byte, so stray spaces or extra lines fail
if printf 'Hello, Gym!' | cmp -s - /app/hello.txt; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
