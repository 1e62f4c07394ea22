#!/bin/bash
# weekly eval
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_unquoted_dataset_path_with_space_split_into_two_arguments/run
DATA="weekly data/string_match.jsonl"
echo "== weekly eval of $DATA"
/work/wt-h35/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h35/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38877/v1 --env string_match --concurrency 4
/work/wt-h35/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
