#!/bin/bash
# weekly eval: prep the sheet, then run
cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/data_schema_builtin_prep_forces_labels_to_ascii_with_encode_ignore_so_accented_city_names_lose_their_letters/run
/work/h95/.venv/bin/python prep.py
/work/h95/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h95/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40109/v1 --env string_match --concurrency 4
/work/h95/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
