#!/bin/bash
# weekly eval of the export
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/data_schema_builtin_label_tidy_script_truncates_decimal_answers/run
python3 normalize_labels.py export.jsonl string_match.jsonl
/work/wt-h23/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h23/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44439/v1 --env string_match --concurrency 4
/work/wt-h23/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
