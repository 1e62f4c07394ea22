#!/bin/bash
# weekly eval: prep labels.csv, then run
cd /work/wt-h83/tests/data/diagnosis_corpus/eighty_third_held_out/data_schema_builtin_prep_splits_labels_csv_lines_at_first_comma_so_questions_containing_commas_get_their_tail_as_label/run
/work/wt-h83/.venv/bin/python prep.py
/work/wt-h83/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h83/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45065/v1 --env string_match --concurrency 4
/work/wt-h83/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
