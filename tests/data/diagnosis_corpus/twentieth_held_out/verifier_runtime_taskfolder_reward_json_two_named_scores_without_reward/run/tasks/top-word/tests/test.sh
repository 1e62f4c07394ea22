#!/bin/bash
# Scores the task on two criteria in /logs/verifier/reward.json (for the dashboard).
cd /app
correct=0
format=0
if test -f /app/top.txt; then format=1; fi
if test "$(tr -d "[:space:]" < /app/top.txt 2>/dev/null)" = "the"; then correct=1; fi
echo "correct=$correct format=$format"
printf '{"correct": %d, "format": %d}\n' "$correct" "$format" > /logs/verifier/reward.json
