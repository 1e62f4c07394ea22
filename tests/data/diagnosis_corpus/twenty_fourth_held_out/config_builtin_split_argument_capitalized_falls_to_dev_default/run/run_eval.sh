#!/bin/bash
# usage: run_eval.sh SPLIT      (dev or test)
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/config_builtin_split_argument_capitalized_falls_to_dev_default/run
SPLIT=$1
case "$SPLIT" in
  test) DATA=splits/test.jsonl ;;
  *)    DATA=splits/dev.jsonl ;;   # dev is the default
esac
echo "evaluating split $SPLIT: $DATA"
/work/wt-h24/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h24/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37425/v1 --env string_match --concurrency 4
/work/wt-h24/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
