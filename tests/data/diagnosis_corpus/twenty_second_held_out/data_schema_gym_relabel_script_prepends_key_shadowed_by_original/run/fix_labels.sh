#!/bin/bash
# apply the reviewers' label corrections (corrections.tsv: line number, corrected label) to tasks.jsonl
cd /work/wt-h22/tests/data/diagnosis_corpus/held_out/data_schema_gym_relabel_script_prepends_key_shadowed_by_original/run
while IFS=$'\t' read -r line label; do
  sed -i "${line}s/^{/{\"expected_answer\": \"${label}\", /" tasks.jsonl
  echo "line $line: expected_answer -> $label"
done < corrections.tsv
echo "checking: $(jq -c . tasks.jsonl | wc -l) valid rows"
