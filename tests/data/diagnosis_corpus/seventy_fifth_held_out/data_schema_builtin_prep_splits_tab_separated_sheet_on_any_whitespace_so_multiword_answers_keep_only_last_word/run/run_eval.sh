#!/bin/bash
# weekly eval of the labelling export
cd /work/wt-h75/tests/data/diagnosis_corpus/seventy_fifth_held_out/data_schema_builtin_prep_splits_tab_separated_sheet_on_any_whitespace_so_multiword_answers_keep_only_last_word/run
/work/wt-h75/.venv/bin/python prep.py
/work/wt-h75/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h75/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44337/v1 --env string_match --concurrency 4
/work/wt-h75/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
