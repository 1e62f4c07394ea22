#!/bin/bash
# weekly eval of the newest version of the dataset
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_picks_dataset_version_with_ls_head/run
DATA=$(ls data/trivia_v*.jsonl | head -1)
echo "== weekly eval of $DATA"
/work/wt-h30/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h30/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36989/v1 \
  --env string_match --concurrency 4
/work/wt-h30/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
