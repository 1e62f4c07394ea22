#!/bin/bash
tr 'A-Z' 'a-z' < /app/text.txt | tr -s ' ' '\n' | sort | uniq -c | sort -rn | head -1 | awk '{print $2}' > /app/top.txt
