#!/bin/bash
# weekly eval of this week's dataset (RUN/evals)
cd /work/wt-h38/tests/data/diagnosis_corpus/held_out/config_builtin_exported_cdpath_from_bashrc_resolves_dataset_folder_to_old_project/run
DATA=$(cd evals && pwd)/string_match.jsonl
echo "== weekly eval of $DATA"
/work/wt-h38/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h38/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34733/v1 --env string_match --concurrency 4
/work/wt-h38/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
