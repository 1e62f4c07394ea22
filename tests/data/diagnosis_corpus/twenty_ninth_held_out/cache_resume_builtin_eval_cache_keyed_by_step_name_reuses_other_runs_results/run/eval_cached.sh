#!/bin/bash
# usage: eval_cached.sh CHECKPOINT MODEL_URL OUT_DIR   (results are cached per checkpoint: evals are not run twice)
KEY=$(basename $1)
CACHE=/work/wt-h29/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_eval_cache_keyed_by_step_name_reuses_other_runs_results/run/eval_cache/$KEY
mkdir -p $3 && cd $3
if [ -f $CACHE/rollouts.jsonl ]; then
  echo "eval cache hit for $KEY: reusing $CACHE"
  cp $CACHE/*.jsonl .
else
  /work/wt-h29/.venv/bin/gym-pipeline materialize --input /work/wt-h29/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_eval_cache_keyed_by_step_name_reuses_other_runs_results/run/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output rollouts_materialized_inputs.jsonl
  /work/wt-h29/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $2 \
    --env string_match --concurrency 4
  /work/wt-h29/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
  mkdir -p $CACHE && cp rollouts*.jsonl $CACHE/
fi
