#!/bin/bash
# weekly eval: prep the sheet, then run
cd /work/wt-h89/tests/data/diagnosis_corpus/eighty_ninth_held_out/data_schema_builtin_prep_reads_answers_column_with_str_split_which_drops_the_blank_unreviewed_line_and_shifts_labels/run
/work/wt-h89/.venv/bin/python prep.py
/work/wt-h89/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h89/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:32807/v1 --env string_match --concurrency 4
/work/wt-h89/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
