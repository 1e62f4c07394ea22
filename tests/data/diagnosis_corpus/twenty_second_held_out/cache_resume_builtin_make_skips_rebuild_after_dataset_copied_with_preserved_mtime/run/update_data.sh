#!/bin/bash
# fetch the data team's current trivia set
cp -p -v /tmp/ho-cache_resume_builtin-xewnenw1/shared/datasets/trivia.jsonl /work/wt-h22/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_make_skips_rebuild_after_dataset_copied_with_preserved_mtime/run/data/trivia.jsonl
