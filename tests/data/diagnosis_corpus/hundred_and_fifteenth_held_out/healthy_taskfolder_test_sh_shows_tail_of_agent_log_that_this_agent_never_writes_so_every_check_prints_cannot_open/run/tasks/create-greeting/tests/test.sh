#!/bin/bash
# for debugging failed episodes: the last lines the agent logged
echo '--- agent log (last 20 lines)'
tail -n 20 /app/agent.log
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
