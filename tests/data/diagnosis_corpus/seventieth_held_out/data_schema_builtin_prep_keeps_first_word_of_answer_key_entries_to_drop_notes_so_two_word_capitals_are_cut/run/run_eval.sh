#!/bin/bash
# weekly eval of the capitals quiz
cd /work/wt-h70/tests/data/diagnosis_corpus/seventieth_held_out/data_schema_builtin_prep_keeps_first_word_of_answer_key_entries_to_drop_notes_so_two_word_capitals_are_cut/run
/work/wt-h70/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h70/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39277/v1 --env string_match --concurrency 4
/work/wt-h70/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
