#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expectation is computed from words.txt (so the test survives a refresh of the word list).
cd /app
expected=$(awk '!seen[$0]++ {w[++n] = $0} END {asort(w); for (i = 1; i <= n; i++) print w[i]}' /app/words.txt)
if test "$(cat /app/sorted.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
