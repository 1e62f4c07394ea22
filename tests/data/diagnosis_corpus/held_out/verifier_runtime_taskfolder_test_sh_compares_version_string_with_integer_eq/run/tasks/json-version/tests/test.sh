#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
want="2.7.1"
cd /app
got=$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)
if [ "$got" -eq "$want" ]; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL: version is '$got', want '$want'"
  echo 0 > /logs/verifier/reward.txt
fi
