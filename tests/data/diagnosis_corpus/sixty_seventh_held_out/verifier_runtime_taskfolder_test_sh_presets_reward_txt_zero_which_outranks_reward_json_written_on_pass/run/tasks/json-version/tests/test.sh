#!/bin/bash
# Scores 0 unless every check passes; the score goes to reward.json with the checks' detail (new in this revision).
mkdir -p /logs/verifier
echo 0 > /logs/verifier/reward.txt   # default score, so a crash below still leaves a reward
cd /app
if test "$(tr -d "[:space:]" < /app/version.txt 2>/dev/null)" = "2.7.1"; then
  echo "PASS"
  echo '{"reward": 1.0}' > /logs/verifier/reward.json
else
  echo "FAIL"
  echo '{"reward": 0.0}' > /logs/verifier/reward.json
fi
