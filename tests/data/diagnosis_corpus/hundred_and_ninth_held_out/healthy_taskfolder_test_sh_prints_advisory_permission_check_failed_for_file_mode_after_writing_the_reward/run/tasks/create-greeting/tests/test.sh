#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
if test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
# advisory only (security review wants owner-only files; not part of the task, not scored)
mode=$(stat -c %a /app/hello.txt 2>/dev/null)
if [ "$mode" != "600" ]; then
  echo "PERMISSION CHECK FAILED (advisory, not scored): /app/hello.txt has mode $mode, policy wants 600"
fi
