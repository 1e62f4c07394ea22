#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected version lives in one place: solution/expected.txt (solve.sh writes the same file).
EXPECTED=$(cat "$(dirname "$0")/../solution/expected.txt" 2>/dev/null)
cd /app
if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "$EXPECTED"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: expected '$EXPECTED'"
  echo 0 > /logs/verifier/reward.txt
fi
