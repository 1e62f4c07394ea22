#!/bin/bash
# split the dataset in 4 shards and collect them side by side
cd /work/wt-h20/tests/data/diagnosis_corpus/held_out/throughput_builtin_shards_collected_at_once_with_xargs/run
mkdir -p shards
split -n l/4 -d --additional-suffix=.jsonl string_match.jsonl shards/part_
ls shards/part_*.jsonl | xargs -P 4 -I{} bash -c 'out=${1%.jsonl}; mkdir -p $out; /work/wt-h20/.venv/bin/gym-pipeline materialize --input $1 --num-repeats 3 --agent string_match_simple_agent --output $out/rollouts_materialized_inputs.jsonl && /work/wt-h20/.venv/bin/gym-pipeline collect --inputs $out/rollouts_materialized_inputs.jsonl --output $out/rollouts.jsonl --model-url http://127.0.0.1:33411/v1 --env string_match --concurrency 8 2>&1 | sed "s|^|[$out] |"' _ {}
cat shards/part_*/rollouts.jsonl > rollouts.jsonl
cat shards/part_*/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl
