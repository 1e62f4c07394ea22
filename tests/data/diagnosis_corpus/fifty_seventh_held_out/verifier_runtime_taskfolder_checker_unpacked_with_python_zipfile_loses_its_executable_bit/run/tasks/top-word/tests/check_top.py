#!/usr/bin/env python3
"""check_top.py: exit 0 when /app/top.txt holds the most frequent word of /app/text.txt (in lower case)."""
import collections
import sys

words = open("/app/text.txt").read().lower().split()
expected = collections.Counter(words).most_common(1)[0][0]
try:
    got = open("/app/top.txt").read().strip()
except FileNotFoundError:
    got = ""
print(f"expected {expected!r}, got {got!r}")
sys.exit(0 if got == expected else 1)
