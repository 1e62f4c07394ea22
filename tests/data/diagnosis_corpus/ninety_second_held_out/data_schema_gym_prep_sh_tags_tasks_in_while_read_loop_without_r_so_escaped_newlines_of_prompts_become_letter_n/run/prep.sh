#!/bin/bash
# prep.sh: tag every task of the question bank's export with this week's split, for the dashboard
WEEK=weekly-2026-W49
while read line; do
  echo "${line%\}}, \"metadata\": {\"split\": \"$WEEK\"}}"
done < bank_export.jsonl > tasks.jsonl
echo "prep: $(wc -l < tasks.jsonl) tasks tagged $WEEK"
