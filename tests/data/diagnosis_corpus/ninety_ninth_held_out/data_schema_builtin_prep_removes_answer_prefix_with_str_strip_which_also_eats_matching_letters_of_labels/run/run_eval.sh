#!/bin/bash
# weekly eval: prep the sheet, then run
cd /work/h99/tests/data/diagnosis_corpus/ninety_ninth_held_out/data_schema_builtin_prep_removes_answer_prefix_with_str_strip_which_also_eats_matching_letters_of_labels/run
/work/h99/.venv/bin/python prep.py
/work/h99/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h99/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34639/v1 --env string_match --concurrency 4
/work/h99/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
