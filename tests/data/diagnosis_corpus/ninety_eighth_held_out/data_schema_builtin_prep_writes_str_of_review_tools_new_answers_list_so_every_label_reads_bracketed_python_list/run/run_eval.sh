#!/bin/bash
# weekly eval: prep the review export, materialize, collect, profile
cd /work/h98/tests/data/diagnosis_corpus/ninety_eighth_held_out/data_schema_builtin_prep_writes_str_of_review_tools_new_answers_list_so_every_label_reads_bracketed_python_list/run
/work/h98/.venv/bin/python prep.py review_export.json string_match.jsonl
head -c 300 string_match.jsonl; echo
/work/h98/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h98/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40861/v1 --env string_match --concurrency 4
/work/h98/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
