#!/bin/bash
# weekly eval (run with the eval venv activated)
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/config_builtin_run_script_names_dataset_variable_path/run
PATH=string_match.jsonl   # the dataset of this week
echo "== weekly eval of $PATH"
gym-pipeline materialize --input $PATH --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46765/v1 \
  --env string_match --concurrency 4
gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
