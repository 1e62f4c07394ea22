#!/bin/bash
# weekly eval: prep the answer key, then run
cd /work/h109/tests/data/diagnosis_corpus/hundred_and_ninth_held_out/data_schema_builtin_prep_passes_labels_through_re_escape_kept_from_regex_grader_so_spaces_and_dots_gain_backslashes/run
/work/h109/.venv/bin/python prep.py
/work/h109/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h109/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46071/v1 --env string_match --concurrency 4
/work/h109/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
