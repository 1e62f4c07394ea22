#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
source "$(dirname "$0")/../../../ci/checks.sh"   # the repo's shared checks
cd /app
if expect_file_equals /app/version.txt "2.7.1"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
