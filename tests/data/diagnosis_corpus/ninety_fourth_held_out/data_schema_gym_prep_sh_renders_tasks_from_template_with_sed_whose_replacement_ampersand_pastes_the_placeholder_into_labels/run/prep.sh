#!/bin/bash
# prep.sh: answer_key.txt (question|answer, from the quiz team) -> tasks.jsonl, one task per line of the key,
# each rendered from task_template.json
set -e
tail -n +2 answer_key.txt | while IFS='|' read -r question answer; do
  sed -e "s|__QUESTION__|$question|" -e "s|__ANSWER__|$answer|" task_template.json
done > tasks.jsonl
echo "prep: $(wc -l < tasks.jsonl) tasks rendered"
