#!/bin/bash
# materialize the eval inputs; cached, the big sets take minutes to materialize
DATA=${1:-data/string_match.jsonl}
REPEATS=3
CACHE_DIR=/tmp/ho-cache_resume_builtin-ryt9t931/home/.cache/eval_inputs
CACHE=$CACHE_DIR/inputs_$(basename $DATA .jsonl)_x$REPEATS.jsonl
mkdir -p $CACHE_DIR
if [ ! -f $CACHE ]; then
  /work/wt-h21/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats $REPEATS --agent string_match_simple_agent --output $CACHE
fi
cp $CACHE rollouts_materialized_inputs.jsonl
echo "inputs: $(wc -l < rollouts_materialized_inputs.jsonl) rows from $CACHE"
