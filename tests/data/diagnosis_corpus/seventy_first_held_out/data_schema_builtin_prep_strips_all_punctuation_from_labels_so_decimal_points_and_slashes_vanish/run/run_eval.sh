#!/bin/bash
# weekly eval of the labelling sheet
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/data_schema_builtin_prep_strips_all_punctuation_from_labels_so_decimal_points_and_slashes_vanish/run
/work/wt-h71/.venv/bin/python prep.py
/work/wt-h71/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h71/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41645/v1 --env string_match --concurrency 4
/work/wt-h71/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
