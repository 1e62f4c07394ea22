#!/bin/bash
# weekly eval: prep the export, then run
cd /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/data_schema_builtin_prep_falls_back_to_legacy_answer_with_or_so_numeric_zero_labels_become_none/run
/work/h93/.venv/bin/python prep.py
/work/h93/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h93/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45207/v1 --env string_match --concurrency 4
/work/h93/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
