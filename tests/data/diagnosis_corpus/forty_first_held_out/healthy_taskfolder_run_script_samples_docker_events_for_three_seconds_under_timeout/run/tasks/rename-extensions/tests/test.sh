#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test -f /app/notes/a.md && test -f /app/notes/b.md && test "$(cat /app/notes/a.md)" = "alpha" && ! ls /app/notes/*.txt >/dev/null 2>&1; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
