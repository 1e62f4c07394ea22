#!/bin/bash
# this week's eval set = the reviewed rows of both annotators
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/data_schema_builtin_dataset_joined_with_cat_from_export_without_final_newline/run
cat annotator_a.jsonl annotator_b.jsonl > string_match.jsonl
wc -l string_match.jsonl
