#!/bin/bash
# weekly eval
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/data_schema_builtin_prep_writes_rows_indented_over_many_lines_for_review_diffs/run
echo '== weekly eval'
python3 prepare_data.py
echo "prepared $(wc -l < string_match.jsonl) lines"
/work/wt-h45/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h45/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33801/v1 --env string_match --concurrency 4
/work/wt-h45/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
