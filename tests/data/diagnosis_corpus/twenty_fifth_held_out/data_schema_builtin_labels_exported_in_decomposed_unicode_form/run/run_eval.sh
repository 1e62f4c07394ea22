#!/bin/bash
# eval of the places set
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/data_schema_builtin_labels_exported_in_decomposed_unicode_form/run
python3 prep_data.py labels.csv places.jsonl
/work/wt-h25/.venv/bin/gym-pipeline materialize --input places.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h25/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40139/v1 --env string_match --concurrency 4
/work/wt-h25/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
