#!/bin/bash
# weekly eval (geo set): prep the answer key, materialize, collect, profile
cd /work/h102/tests/data/diagnosis_corpus/hundred_and_second_held_out/data_schema_builtin_answer_key_batch_filled_from_gazetteer_official_names_labels_capitals_in_local_language/run
/work/h102/.venv/bin/python prep.py
/work/h102/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h102/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35741/v1 --env string_match --concurrency 4
/work/h102/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
