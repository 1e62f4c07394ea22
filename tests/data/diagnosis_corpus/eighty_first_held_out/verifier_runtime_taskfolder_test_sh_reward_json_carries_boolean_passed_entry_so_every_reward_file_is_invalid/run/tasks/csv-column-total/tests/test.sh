#!/bin/bash
# Writes /logs/verifier/reward.json: the reward and the check's details, for the dashboard.
cd /app
got="$(tr -d "[:space:]" < /app/total.txt 2>/dev/null)"
if test "$got" = "435"; then
  echo "PASS"
  reward=1; passed=true
else
  echo "FAIL (got '$got')"
  reward=0; passed=false
fi
echo "{\"reward\": $reward, \"passed\": $passed, \"expected_total\": 435}" > /logs/verifier/reward.json
cat /logs/verifier/reward.json
