"""build_index.py: precompute the package index the task's fixtures are checked against (slow, runs once)"""
import hashlib
import sys

digest = sys.argv[1].encode()
for _ in range(40_000_000):
    digest = hashlib.sha256(digest).digest()
open("/app/index.sha", "w").write(digest.hex() + "\n")
