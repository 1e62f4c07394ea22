#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected greeting comes from the team's grader service on the host, so it can change without a rebuild.
cd /app
expected=$(python3 -c 'import urllib.request; print(urllib.request.urlopen("http://127.0.0.1:42459/greeting.txt", timeout=5).read().decode().strip())') || { echo "could not reach the grader service at 127.0.0.1:42459"; exit 1; }
if test "$(cat /app/hello.txt 2>/dev/null)" = "$expected"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
