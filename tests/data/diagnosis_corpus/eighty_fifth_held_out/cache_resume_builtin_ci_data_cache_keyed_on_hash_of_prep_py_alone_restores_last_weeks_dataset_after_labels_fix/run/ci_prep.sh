#!/bin/bash
# ci_prep.sh: the CI's data step; the prepared dataset is cached between pipelines (prep is slow on the full sheet)
cd "$1"
CACHE_ROOT=/tmp/ho-cache_resume_builtin-fy7bdr_9/ci_cache
KEY=prep-$(sha256sum prep.py | cut -c1-16)
if [ -f "$CACHE_ROOT/$KEY/string_match.jsonl" ]; then
  echo "cache hit: $KEY, restoring the prepared dataset"
  cp "$CACHE_ROOT/$KEY/string_match.jsonl" string_match.jsonl
else
  echo "cache miss: $KEY, running prep.py"
  /work/wt-h85/.venv/bin/python prep.py
  mkdir -p "$CACHE_ROOT/$KEY" && cp string_match.jsonl "$CACHE_ROOT/$KEY/"
fi
