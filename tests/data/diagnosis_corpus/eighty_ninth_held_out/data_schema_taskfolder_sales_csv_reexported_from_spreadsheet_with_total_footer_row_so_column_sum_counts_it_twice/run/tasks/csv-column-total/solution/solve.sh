#!/bin/bash
awk -F, 'NR > 1 {s += $3} END {print s}' /app/sales.csv > /app/total.txt
