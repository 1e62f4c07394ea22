#!/bin/bash
# weekly eval of the question bank export
cd /work/wt-h80/tests/data/diagnosis_corpus/eightieth_held_out/data_schema_builtin_questions_exported_from_varchar_255_column_are_cut_off_mid_sentence/run
/work/wt-h80/.venv/bin/python prep.py
/work/wt-h80/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h80/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41333/v1 --env string_match --concurrency 4
/work/wt-h80/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
