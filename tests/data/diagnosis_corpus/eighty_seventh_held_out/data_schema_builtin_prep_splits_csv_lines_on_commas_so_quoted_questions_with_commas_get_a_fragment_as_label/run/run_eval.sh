#!/bin/bash
# weekly eval: prep labels.csv, then run
cd /work/wt-h87/tests/data/diagnosis_corpus/eighty_seventh_held_out/data_schema_builtin_prep_splits_csv_lines_on_commas_so_quoted_questions_with_commas_get_a_fragment_as_label/run
/work/wt-h87/.venv/bin/python prep.py
/work/wt-h87/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h87/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40011/v1 --env string_match --concurrency 4
/work/wt-h87/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
