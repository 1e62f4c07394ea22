#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
want=$(python3 -c 'import json; d = json.load(open("/app/package.json")); print(f"{d["version"]}")')
got=$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)
if test -n "$want" && test "$got" = "$want"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL (want '$want', got '$got')"
  echo 0 > /logs/verifier/reward.txt
fi
