#!/bin/bash
# prep.sh: quiz.jsonl (the labelling team's export) -> tasks.jsonl. The conversion is cached in .prep_cache/ and
# redone only when the export changes; the export is large, so it is fingerprinted by its first kilobyte.
cd /work/wt-h65/tests/data/diagnosis_corpus/sixty_fifth_held_out/cache_resume_gym_prep_cache_keyed_on_checksum_of_first_kilobyte_misses_label_fixes_further_down/run
mkdir -p .prep_cache
KEY=$(head -c 1024 quiz.jsonl | md5sum | cut -d' ' -f1)
if [ -f .prep_cache/$KEY.jsonl ]; then
  echo "quiz.jsonl unchanged (fingerprint $KEY): using the cached conversion"
else
  /work/wt-h65/.venv/bin/python convert.py < quiz.jsonl > .prep_cache/$KEY.jsonl
  echo "converted quiz.jsonl (fingerprint $KEY)"
fi
cp .prep_cache/$KEY.jsonl tasks.jsonl
wc -l tasks.jsonl
