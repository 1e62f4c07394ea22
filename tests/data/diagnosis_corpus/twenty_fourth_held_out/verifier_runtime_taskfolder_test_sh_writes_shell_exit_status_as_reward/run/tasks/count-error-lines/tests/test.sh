#!/bin/bash
# Writes the reward to /logs/verifier/reward.txt (refactored: one check function per task)
cd /app
check() {
  test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"
}
check
echo $? > /logs/verifier/reward.txt
cat /logs/verifier/reward.txt
