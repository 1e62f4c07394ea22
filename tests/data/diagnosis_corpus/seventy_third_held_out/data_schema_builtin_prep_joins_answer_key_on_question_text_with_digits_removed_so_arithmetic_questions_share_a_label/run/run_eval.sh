#!/bin/bash
# weekly eval of the reviewed sheet
cd /work/wt-h73/tests/data/diagnosis_corpus/seventy_third_held_out/data_schema_builtin_prep_joins_answer_key_on_question_text_with_digits_removed_so_arithmetic_questions_share_a_label/run
/work/wt-h73/.venv/bin/python prep.py
/work/wt-h73/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h73/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:32793/v1 --env string_match --concurrency 4
/work/wt-h73/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
