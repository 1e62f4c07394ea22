#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi

# optional: lint /app/config.json when a task ships one (most do not); a failure here is not scored
python3 - <<'PY' || echo "lint: skipped (this task has no /app/config.json)"
import json
json.load(open("/app/config.json"))
print("lint: /app/config.json OK")
PY
