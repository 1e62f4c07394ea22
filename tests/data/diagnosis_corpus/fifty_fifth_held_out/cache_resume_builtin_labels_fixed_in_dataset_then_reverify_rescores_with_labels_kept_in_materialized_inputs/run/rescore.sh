#!/bin/bash
# rescore.sh: the labelling team fixed three labels; re-score last week's answers instead of collecting again
# (reverify needs no model server)
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/cache_resume_builtin_labels_fixed_in_dataset_then_reverify_rescores_with_labels_kept_in_materialized_inputs/run
cp labels_fixed/string_match.jsonl string_match.jsonl
echo "== labels updated: $(grep -c . string_match.jsonl) rows"
/work/wt-h55/.venv/bin/gym-pipeline reverify . --env string_match
/work/wt-h55/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
