#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
small="$(python3 /app/sum_to.py 10)"
one="$(python3 /app/sum_to.py 1)"
big="$(python3 /app/sum_to.py 100)"   # a bigger N too: 1 + ... + 100 = 100*101/2 = 5000
echo "sum_to 10 -> $small, 1 -> $one, 100 -> $big"
if test "$small" = "55" && test "$one" = "1" && test "$big" = "5000"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
