#!/bin/bash
# Partial credit (new in this revision): one point per check passed, written as passed/total.
cd /app
passed=0
total=2
[ -s /app/count.txt ] && passed=$((passed + 1))
if test "$(tr -d "[:space:]" < /app/count.txt 2>/dev/null)" = "3"; then passed=$((passed + 1)); fi
echo "checks passed: $passed of $total"
echo "$passed/$total" > /logs/verifier/reward.txt
