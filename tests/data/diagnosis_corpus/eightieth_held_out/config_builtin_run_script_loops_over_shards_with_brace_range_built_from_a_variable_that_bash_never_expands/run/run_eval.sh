#!/bin/bash
# weekly eval, shard by shard
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/config_builtin_run_script_loops_over_shards_with_brace_range_built_from_a_variable_that_bash_never_expands/run
split -l 4 -d -a 1 --additional-suffix=.jsonl tasks.jsonl shard_
LAST=$(( $(ls shard_*.jsonl | wc -l) - 1 ))
echo "shards 0 to $LAST"
for i in {0..$LAST}; do
  mkdir -p "results/shard_$i"
  /work/wt-h80/.venv/bin/gym-pipeline materialize --input "shard_$i.jsonl" --num-repeats 3 --agent string_match_simple_agent \
    --output "results/shard_$i/rollouts_materialized_inputs.jsonl"
  /work/wt-h80/.venv/bin/gym-pipeline collect --inputs "results/shard_$i/rollouts_materialized_inputs.jsonl" --output "results/shard_$i/rollouts.jsonl" \
    --model-url http://127.0.0.1:34171/v1 --env string_match --concurrency 4
  /work/wt-h80/.venv/bin/gym-pipeline profile --inputs "results/shard_$i/rollouts_materialized_inputs.jsonl" --rollouts "results/shard_$i/rollouts.jsonl"
done
