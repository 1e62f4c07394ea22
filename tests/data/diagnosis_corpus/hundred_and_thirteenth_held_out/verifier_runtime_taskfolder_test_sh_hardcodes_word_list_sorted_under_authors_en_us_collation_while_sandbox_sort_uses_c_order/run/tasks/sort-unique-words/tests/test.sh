#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# expected list: `sort -u environment/words.txt` on the author's laptop
cd /app
expected=$(printf "apple\nbanana\ncherry\nfig\nKiwi\npear")
if test "$(cat /app/sorted.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: got $(tr '\n' ' ' < /app/sorted.txt 2>/dev/null)"
  echo 0 > /logs/verifier/reward.txt
fi
