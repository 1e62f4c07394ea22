#!/bin/bash
# weekly eval, collected in shards at once: bash run_eval.sh MODEL_URL SHARDS
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_shard_merge_glob_picks_up_last_weeks_extra_shard/run
SHARDS=$2
/work/wt-h31/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
mkdir -p shards
split -n l/$SHARDS -d --additional-suffix=.jsonl rollouts_materialized_inputs.jsonl shards/in_
for i in $(seq -w 0 $((SHARDS - 1))); do
  [ ${#i} -lt 2 ] && i=0$i
  mkdir -p shards/$i
  rm -f shards/$i/rollouts.jsonl   # a fresh output for this shard
  /work/wt-h31/.venv/bin/gym-pipeline collect --inputs shards/in_$i.jsonl --output shards/$i/rollouts.jsonl --model-url $1 \
    --env string_match --concurrency 2 &
done
wait
cat shards/*/rollouts.jsonl > rollouts.jsonl
/work/wt-h31/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
