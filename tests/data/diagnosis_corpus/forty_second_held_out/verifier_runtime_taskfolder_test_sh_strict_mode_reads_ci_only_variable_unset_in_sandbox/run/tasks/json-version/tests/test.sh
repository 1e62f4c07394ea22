#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# strict mode, as in the team's shell style guide
set -euo pipefail
want="2.7.1"
# TASK_EXPECTED_DIR: where CI keeps expected values of tasks under revision
if [ -n "$TASK_EXPECTED_DIR" ] && [ -f "$TASK_EXPECTED_DIR/json-version.txt" ]; then
  want=$(cat "$TASK_EXPECTED_DIR/json-version.txt")
fi
cd /app
if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "$want"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
