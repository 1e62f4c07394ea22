#!/bin/bash
# CI eval step (a 40 s budget): one collect per task, so that a bad task cannot take the others down
cd /work/wt-h26/tests/data/diagnosis_corpus/held_out/throughput_builtin_one_collect_per_task_loop_overruns_ci_budget/run
/work/wt-h26/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
rm -rf chunks && mkdir chunks
split -l 3 -d rollouts_materialized_inputs.jsonl chunks/task_
timeout 40 bash -c '
for chunk in chunks/task_*; do
  echo "== $chunk"
  /work/wt-h26/.venv/bin/gym-pipeline collect --inputs $chunk --output $chunk.rollouts.jsonl --model-url http://127.0.0.1:42791/v1 --env string_match --concurrency 3
done'
echo "collect loop exited $?"
cat chunks/task_*.rollouts.jsonl > rollouts.jsonl
/work/wt-h26/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
