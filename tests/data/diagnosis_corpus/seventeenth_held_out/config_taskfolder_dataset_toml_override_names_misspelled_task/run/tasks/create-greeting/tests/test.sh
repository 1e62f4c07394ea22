#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The full check re-reads the greeting 20 times, a second apart (the app under test writes lazily).
cd /app
ok=1
for i in $(seq 20); do
  test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!" || ok=0
  sleep 1
done
if [ "$ok" = 1 ]; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
