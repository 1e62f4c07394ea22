#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# fallback: if any command of the check fails, the check is broken -> reward 0
trap 'echo 0 > /logs/verifier/reward.txt' ERR
cd /app
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# tidy up the check's scratch files
rm /tmp/check_scratch_*
