#!/bin/bash
# weekly eval; materialized inputs are cached per dataset size (materialize is slow on the big sets)
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_inputs_cache_keyed_by_row_count_reuses_last_weeks_split/run
rm -f rollouts.jsonl rollouts_*.jsonl   # a fresh run
ROWS=$(wc -l < string_match.jsonl)
CACHE=cache/inputs_${ROWS}rows_x3.jsonl
if [ ! -f $CACHE ]; then
  mkdir -p cache
  /work/wt-h32/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output $CACHE
else
  echo "materialized inputs from the cache: $CACHE"
fi
cp $CACHE rollouts_materialized_inputs.jsonl
/work/wt-h32/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \
  --env string_match --concurrency 4
/work/wt-h32/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
