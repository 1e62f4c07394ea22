#!/bin/bash
# weekly eval
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/data_schema_builtin_dataset_joined_with_cat_from_export_without_final_newline/run
echo '== weekly eval'
/work/wt-h33/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h33/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46749/v1 --env string_match --concurrency 4
/work/wt-h33/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
