#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected file lives beside this script (tests/expected_hello.txt), so the greeting is kept in one place.
if diff /app/hello.txt /tests/expected_hello.txt; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
