#!/bin/bash
# weekly eval, shards collected side by side
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/throughput_builtin_shard_driver_pool_map_chunksize_of_shard_count_hands_every_shard_to_one_worker_past_ci_budget/run
/work/wt-h91/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir -p shards/in shards/out
split -n l/4 -d rollouts_materialized_inputs.jsonl shards/in/part_
echo "$(ls shards/in | wc -l) shards"
# CI gives the collect step 20 s (ci.yaml)
timeout 20 /work/wt-h91/.venv/bin/python collect_shards.py http://127.0.0.1:37101/v1
echo "collect step exit: $?"
cat shards/out/*.jsonl > rollouts.jsonl
/work/wt-h91/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
