#!/bin/bash
# weekly eval: prep the sheet, then run
cd /work/h101/tests/data/diagnosis_corpus/hundred_and_first_held_out/data_schema_builtin_prep_tidies_labels_with_str_title_so_case_sensitive_acronyms_and_hyphenated_names_never_match/run
/work/h101/.venv/bin/python prep.py
/work/h101/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h101/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:43047/v1 --env string_match --concurrency 4
/work/h101/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
