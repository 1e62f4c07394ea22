#!/bin/bash
# weekly eval: a 12-task subset of the full export (the export is shuffled)
cd /work/wt-h21/tests/data/diagnosis_corpus/held_out/data_schema_builtin_eval_subset_cut_from_difficulty_sorted_export/run
head -n 12 export/trivia_full.jsonl > eval_subset.jsonl
wc -l export/trivia_full.jsonl eval_subset.jsonl
