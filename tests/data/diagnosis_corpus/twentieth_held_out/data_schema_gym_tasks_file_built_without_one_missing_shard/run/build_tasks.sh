#!/bin/bash
# fetch the shards of trivia-v3 and build tasks.jsonl
cd /work/wt-h20/tests/data/diagnosis_corpus/held_out/data_schema_gym_tasks_file_built_without_one_missing_shard/run
mkdir -p shards
for shard in $(tail -n +2 MANIFEST | cut -d' ' -f1); do cp /tmp/ho-data_schema_gym_task-i0z8v5so/mirror/datasets/trivia-v3/$shard shards/; done
cat shards/*.jsonl > tasks.jsonl
echo "built tasks.jsonl"
