#!/bin/bash
# eval of the spreadsheet questions
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/data_schema_builtin_prep_splits_csv_on_commas_inside_quoted_questions/run
python3 prep_data.py questions.csv tasks.jsonl
/work/wt-h30/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h30/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36103/v1 --env string_match --concurrency 4
/work/wt-h30/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
