#!/bin/bash
# CI eval step: 45 s budget for the collection
cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/throughput_builtin_batches_with_politeness_pause_overrun_ci_budget/run
/work/wt-h27/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
timeout 45 bash collect_batches.sh
echo "collect_batches.sh exited $?"
cat batches/*.rollouts.jsonl > rollouts.jsonl
/work/wt-h27/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
