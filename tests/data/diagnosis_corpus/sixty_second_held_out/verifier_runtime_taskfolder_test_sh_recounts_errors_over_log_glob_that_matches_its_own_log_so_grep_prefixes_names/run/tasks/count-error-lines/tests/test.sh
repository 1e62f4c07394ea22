#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected count is recounted from the logs (the hard-coded 3 broke when server.log was refreshed).
cd /app
echo "check started $(date -u +%FT%TZ)" >> /app/verify.log
want="$(grep -c ERROR /app/*.log)"
got="$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)"
echo "want=$want got=$got" | tee -a /app/verify.log
if test "$got" = "$want"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
