#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
cp /app/sorted.txt /logs/verifier/got.txt 2>/dev/null   # kept for debugging failed episodes
printf "apple\nbanana\ncherry\nfig\npear" > /logs/verifier/want.txt
if test "$(cat /app/sorted.txt 2>/dev/null)" = "$(cat /logs/verifier/want.txt)"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# tidy up the scratch copies
rm -f /logs/verifier/*.txt
