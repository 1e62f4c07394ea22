#!/bin/bash
# weekly eval of both splits (dev and test), then one profile of everything
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/config_builtin_split_loop_writes_every_split_to_the_same_output_names/run
for SPLIT in dev test; do
  echo "== split $SPLIT"
  /work/wt-h36/.venv/bin/gym-pipeline materialize --input data/$SPLIT.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output rollouts_materialized_inputs.jsonl
  /work/wt-h36/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46049/v1 \
    --env string_match --concurrency 4
done
/work/wt-h36/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
