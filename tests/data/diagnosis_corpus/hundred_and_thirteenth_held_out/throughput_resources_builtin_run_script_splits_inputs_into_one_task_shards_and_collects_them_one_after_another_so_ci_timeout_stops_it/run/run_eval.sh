#!/bin/bash
# nightly CI eval step (budget: 60 s)
cd /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/throughput_resources_builtin_run_script_splits_inputs_into_one_task_shards_and_collects_them_one_after_another_so_ci_timeout_stops_it/run
/work/h113/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards
# one task (3 repeats) per shard, so a crash only loses one shard
split -l 3 -d -a 3 rollouts_materialized_inputs.jsonl shards/part_
timeout 60 bash -c '
for shard in shards/part_*; do
  /work/h113/.venv/bin/gym-pipeline collect --inputs $shard --output $shard.rollouts.jsonl --model-url http://127.0.0.1:37361/v1 --env string_match --concurrency 8 || exit 1
done'
echo "collect loop exit: $?"
cat shards/*.rollouts.jsonl > rollouts.jsonl
/work/h113/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
