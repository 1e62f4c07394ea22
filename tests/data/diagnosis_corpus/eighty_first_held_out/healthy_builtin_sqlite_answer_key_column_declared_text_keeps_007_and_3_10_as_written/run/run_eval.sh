#!/bin/bash
# weekly eval of the quiz kept in SQLite
cd /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/healthy_builtin_sqlite_answer_key_column_declared_text_keeps_007_and_3_10_as_written/run
rm -f quiz.db
sqlite3 quiz.db < answer_key.sql
/work/wt-h81/.venv/bin/python prep.py
/work/wt-h81/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h81/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34509/v1 --env string_match --concurrency 4
/work/wt-h81/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
