#!/bin/bash
# weekly eval: prep the export, then run
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/data_schema_builtin_prep_dedupes_questions_on_first_twenty_characters_so_distinct_questions_sharing_a_stem_vanish/run
/work/wt-h91/.venv/bin/python prep.py
/work/wt-h91/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h91/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37131/v1 --env string_match --concurrency 4
/work/wt-h91/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
