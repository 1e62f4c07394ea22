#!/bin/bash
# Writes 1 to /logs/verifier/reward.txt when the task is done, else 0.
cd /app
test "$(cat /app/hello.txt 2>/dev/null)" = "Hello, Gym!" && echo 1 || echo 0 > /logs/verifier/reward.txt
