#!/bin/bash
# weekly eval of the reviewed labels
cd /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/data_schema_builtin_review_export_has_two_columns_named_answer_and_dictreader_keeps_the_reviewers_blank_one/run
/work/wt-h75/.venv/bin/python prep.py
/work/wt-h75/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h75/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35669/v1 --env string_match --concurrency 4
/work/wt-h75/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
