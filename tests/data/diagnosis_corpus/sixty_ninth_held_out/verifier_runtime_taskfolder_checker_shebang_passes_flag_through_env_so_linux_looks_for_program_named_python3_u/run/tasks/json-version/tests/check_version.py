#!/usr/bin/env python3 -u
# check_version.py FILE EXPECTED: exit 0 when FILE holds the version EXPECTED (shared by the JSON tasks).
# -u: unbuffered, so its lines interleave with test.sh's in test-stdout.txt
import sys

got = open(sys.argv[1]).read().strip()
print(f"version.txt holds {got!r}, expected {sys.argv[2]!r}")
sys.exit(0 if got == sys.argv[2] else 1)
