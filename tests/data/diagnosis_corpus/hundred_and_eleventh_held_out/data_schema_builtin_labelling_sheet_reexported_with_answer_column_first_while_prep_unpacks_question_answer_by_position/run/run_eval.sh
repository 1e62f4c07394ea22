#!/bin/bash
# weekly eval: prep the answer key, then run
cd /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/data_schema_builtin_labelling_sheet_reexported_with_answer_column_first_while_prep_unpacks_question_answer_by_position/run
/work/h111/.venv/bin/python prep.py
/work/h111/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h111/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40961/v1 --env string_match --concurrency 4
/work/h111/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
