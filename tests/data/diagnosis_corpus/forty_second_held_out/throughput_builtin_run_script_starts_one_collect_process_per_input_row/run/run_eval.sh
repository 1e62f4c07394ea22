#!/bin/bash
# weekly eval: one collect per input row, so that a crash loses at most one rollout
cd /work/wt-h42/tests/data/diagnosis_corpus/held_out/throughput_builtin_run_script_starts_one_collect_process_per_input_row/run
echo '== weekly eval'
/work/wt-h42/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards
split -l 1 -d -a 3 rollouts_materialized_inputs.jsonl shards/row_
for shard in shards/row_*; do
  /work/wt-h42/.venv/bin/gym-pipeline collect --inputs $shard --output $shard.rollouts.jsonl --model-url http://127.0.0.1:42833/v1 --env string_match --concurrency 1 > /dev/null
  echo "collected $shard"
done
cat shards/*.rollouts.jsonl > rollouts.jsonl
/work/wt-h42/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
