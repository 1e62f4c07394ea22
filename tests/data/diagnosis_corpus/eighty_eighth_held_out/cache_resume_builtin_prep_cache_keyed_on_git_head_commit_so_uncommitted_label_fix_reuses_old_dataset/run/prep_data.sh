#!/bin/bash
# prep_data.sh OUT: the eval repo's labels.csv -> OUT/string_match.jsonl; prepared datasets are cached per commit
REPO=/tmp/ho-cache_resume_builtin-4kxxvf2g/home/evals
OUT=$1
KEY=$(git -C $REPO rev-parse --short HEAD)
CACHE=/tmp/ho-cache_resume_builtin-4kxxvf2g/home/.cache/eval-prep/$KEY
echo "eval data at commit $KEY"
if [ -f $CACHE/string_match.jsonl ]; then
  echo "prep cache hit ($KEY): restoring the prepared dataset"
  cp $CACHE/string_match.jsonl $OUT/string_match.jsonl
else
  echo "prep cache miss ($KEY): running prep.py"
  (cd $REPO && /work/wt-h88/.venv/bin/python prep.py $OUT/string_match.jsonl)
  mkdir -p $CACHE && cp $OUT/string_match.jsonl $CACHE/
fi
cp $REPO/labels.csv $OUT/labels.csv   # keep the labels the results were made with
