#!/bin/bash
# init.sh: warm the word-frequency cache the refreshed text needs (from the data team's image template)
mkdir -p /app/cache
tr -s '[:space:]' '\n' < /app/text.txt | sort > /app/cache/words.sorted
echo "init: cache ready ($(wc -l < /app/cache/words.sorted) words)"
