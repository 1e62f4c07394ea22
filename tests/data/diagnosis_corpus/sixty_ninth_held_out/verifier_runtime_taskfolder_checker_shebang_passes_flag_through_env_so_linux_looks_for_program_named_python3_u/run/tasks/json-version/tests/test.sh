#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The check itself lives in check_version.py, shared with the other JSON tasks.
cd /app
if /tests/check_version.py /app/version.txt 2.7.1; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
