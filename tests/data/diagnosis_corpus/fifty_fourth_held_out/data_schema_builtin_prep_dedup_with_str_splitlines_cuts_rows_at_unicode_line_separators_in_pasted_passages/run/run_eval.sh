#!/bin/bash
# weekly eval
cd /work/wt-h54/tests/data/diagnosis_corpus/fifty_fourth_held_out/data_schema_builtin_prep_dedup_with_str_splitlines_cuts_rows_at_unicode_line_separators_in_pasted_passages/run
echo '== weekly eval: dedup the export'
python3 dedup.py export.jsonl string_match.jsonl
/work/wt-h54/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h54/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41775/v1 --env string_match --concurrency 4
/work/wt-h54/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
