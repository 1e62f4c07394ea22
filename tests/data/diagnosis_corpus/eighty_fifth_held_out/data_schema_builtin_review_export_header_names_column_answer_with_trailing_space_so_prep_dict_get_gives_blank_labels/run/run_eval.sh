#!/bin/bash
# weekly eval: prep labels.csv, then run
cd /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/data_schema_builtin_review_export_header_names_column_answer_with_trailing_space_so_prep_dict_get_gives_blank_labels/run
/work/wt-h85/.venv/bin/python prep.py
/work/wt-h85/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h85/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37691/v1 --env string_match --concurrency 4
/work/wt-h85/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
