#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
# The expected text is kept as its md5 so the answer is not spelled out here.
cd /app
EXPECTED_MD5=231d562a9ffe41de42242a3588b9f830
GOT_MD5=$(md5sum < /app/hello.txt 2>/dev/null | cut -d' ' -f1)
echo "md5 of /app/hello.txt: $GOT_MD5 (expected $EXPECTED_MD5)"
if test "$GOT_MD5" = "$EXPECTED_MD5"; then
  echo "PASS"
  echo 1 > /logs/verifier/reward.txt
else
  echo "FAIL"
  echo 0 > /logs/verifier/reward.txt
fi
