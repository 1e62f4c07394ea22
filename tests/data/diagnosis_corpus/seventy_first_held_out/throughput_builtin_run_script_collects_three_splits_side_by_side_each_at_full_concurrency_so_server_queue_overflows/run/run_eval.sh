#!/bin/bash
# weekly eval of the three splits; collected side by side to finish sooner
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/throughput_builtin_run_script_collects_three_splits_side_by_side_each_at_full_concurrency_so_server_queue_overflows/run
for split in easy medium hard; do
  /work/wt-h71/.venv/bin/gym-pipeline materialize --input splits/$split.jsonl --num-repeats 2 --agent string_match_simple_agent --output $split/rollouts_materialized_inputs.jsonl
  /work/wt-h71/.venv/bin/gym-pipeline collect --inputs $split/rollouts_materialized_inputs.jsonl --output $split/rollouts.jsonl --model-url http://127.0.0.1:38849/v1 --env string_match --concurrency 8 > logs/collect_$split.log 2>&1 &
done
wait
echo '== all splits collected'
for split in easy medium hard; do
  /work/wt-h71/.venv/bin/gym-pipeline profile --inputs $split/rollouts_materialized_inputs.jsonl --rollouts $split/rollouts.jsonl
done
