#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
expected() {
    cat <<-EOF
    apple
    banana
    cherry
    fig
    pear
    EOF
}
if test "$(cat /app/sorted.txt 2>/dev/null)" = "$(expected)"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
