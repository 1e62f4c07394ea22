#!/bin/bash
# prepare.sh: labels.csv -> tasks.jsonl, cached by the content of labels.csv (the prep is slow on the full set)
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_prep_output_cached_by_hash_of_labels_csv_ignores_fixed_prep_script/run
KEY=$(sha256sum labels.csv | cut -c1-16)
CACHE=/tmp/ho-cache_resume_builtin-1dxa_cvp/home/.cache/evalprep/$KEY.jsonl
if [ -f "$CACHE" ]; then
  echo "labels.csv unchanged: using the cached tasks $CACHE"
  cp "$CACHE" string_match.jsonl
else
  python3 prepare_data.py
  mv tasks.jsonl string_match.jsonl
  mkdir -p /tmp/ho-cache_resume_builtin-1dxa_cvp/home/.cache/evalprep && cp string_match.jsonl "$CACHE"
fi
