#!/bin/sh
# prep.sh: join this week's question files into one dataset, leaving out the rows marked retired
: > string_match.jsonl
for part in parts/*.jsonl; do
  while IFS= read -r line; do
    case "$line" in *'"retired": true'*) continue ;; esac
    echo "$line" >> string_match.jsonl
  done < "$part"
  echo "prep: $part joined"
done
echo "prep: $(wc -l < string_match.jsonl) rows"
