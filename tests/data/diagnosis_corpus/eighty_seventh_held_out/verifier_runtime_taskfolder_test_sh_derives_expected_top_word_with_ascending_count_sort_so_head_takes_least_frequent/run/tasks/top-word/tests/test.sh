#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected word is now derived from the input itself (no more hard-coded answer when text.txt changes).
cd /app
expected="$(tr 'A-Z' 'a-z' < /app/text.txt | tr -s ' ' '\n' | sort | uniq -c | sort -n | head -1 | awk '{print $2}')"
got="$(tr -d '[:space:]' < /app/top.txt 2>/dev/null)"
echo "expected '$expected', got '$got'"
if test "$got" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
