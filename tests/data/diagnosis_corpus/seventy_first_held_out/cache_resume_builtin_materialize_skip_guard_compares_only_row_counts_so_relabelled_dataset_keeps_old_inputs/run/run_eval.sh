#!/bin/bash
# weekly eval; materializing is skipped when the kept inputs already cover the dataset (rows x repeats)
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/cache_resume_builtin_materialize_skip_guard_compares_only_row_counts_so_relabelled_dataset_keeps_old_inputs/run
rm -f rollouts.jsonl rollouts_failures.jsonl
REPEATS=3
want=$(( $(wc -l < string_match.jsonl) * REPEATS ))
have=$(wc -l < rollouts_materialized_inputs.jsonl 2>/dev/null || echo 0)
if [ "$have" -eq "$want" ]; then
  echo "inputs complete ($have rows): keeping them"
else
  echo "inputs incomplete ($have of $want rows): materializing"
  /work/wt-h71/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \
    --output rollouts_materialized_inputs.jsonl
fi
/work/wt-h71/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46593/v1 \
  --env string_match --concurrency 4
/work/wt-h71/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
