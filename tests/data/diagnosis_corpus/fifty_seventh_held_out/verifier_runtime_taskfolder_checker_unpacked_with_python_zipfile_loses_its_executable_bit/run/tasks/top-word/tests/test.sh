#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The check itself is tests/check_top.py, run as a program (it has its shebang and is executable).
if /tests/check_top.py; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
