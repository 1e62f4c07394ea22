#!/bin/bash
# weekly eval: prep the sheet, materialize, collect, profile
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/data_schema_builtin_prep_keeps_first_token_of_answer_cell_to_drop_reviewer_notes_so_space_grouped_thousands_become_12/run
/work/h114/.venv/bin/python prep.py
/work/h114/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h114/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44859/v1 --env string_match --concurrency 4
/work/h114/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
