#!/bin/bash
# run_eval.sh MODEL_URL: the weekly eval in two shards, merged
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_shard_merge_appends_with_double_redirect_onto_last_weeks_merged_rollouts/run
echo "== weekly eval against $1"
/work/wt-h45/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
rm -rf shards && mkdir shards && split -n l/2 -d rollouts_materialized_inputs.jsonl shards/part_
for shard in shards/part_0*; do
  /work/wt-h45/.venv/bin/gym-pipeline collect --inputs $shard --output $shard.rollouts.jsonl --model-url $1 --env string_match --concurrency 4
done
cat shards/*.rollouts.jsonl >> rollouts.jsonl
wc -l rollouts.jsonl
/work/wt-h45/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
