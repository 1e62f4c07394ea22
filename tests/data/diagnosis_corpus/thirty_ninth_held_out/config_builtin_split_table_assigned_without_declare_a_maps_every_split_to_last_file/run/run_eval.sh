#!/bin/bash
# weekly eval of both splits
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/config_builtin_split_table_assigned_without_declare_a_maps_every_split_to_last_file/run
SPLITS=(dev test)
DATA[dev]=string_match_dev.jsonl
DATA[test]=string_match_test.jsonl
for split in "${SPLITS[@]}"; do
  echo "== $split: ${DATA[$split]}"
  mkdir -p results_$split
  /work/wt-h39/.venv/bin/gym-pipeline materialize --input ${DATA[$split]} --num-repeats 3 --agent string_match_simple_agent \
    --output results_$split/rollouts_materialized_inputs.jsonl
  /work/wt-h39/.venv/bin/gym-pipeline collect --inputs results_$split/rollouts_materialized_inputs.jsonl --output results_$split/rollouts.jsonl \
    --model-url http://127.0.0.1:36333/v1 --env string_match --concurrency 4
  /work/wt-h39/.venv/bin/gym-pipeline profile --inputs results_$split/rollouts_materialized_inputs.jsonl --rollouts results_$split/rollouts.jsonl
done
