#!/bin/bash
# prep.sh: labels.csv (last export) + fixes.csv (the reviewers' corrections, which win) -> tasks.jsonl
set -e
tail -n +2 labels.csv > /tmp/labels.$$
tail -n +2 fixes.csv > /tmp/fixes.$$
# one row per question; a question in fixes.csv replaces the one in labels.csv
cat /tmp/labels.$$ /tmp/fixes.$$ | sort -t, -k1,1 -u > merged.csv
rm -f /tmp/labels.$$ /tmp/fixes.$$
echo "prep: $(wc -l < merged.csv) questions, $(wc -l < fixes.csv | awk '{print $1 - 1}') corrections applied"
/work/h92/.venv/bin/python to_jsonl.py merged.csv tasks.jsonl
