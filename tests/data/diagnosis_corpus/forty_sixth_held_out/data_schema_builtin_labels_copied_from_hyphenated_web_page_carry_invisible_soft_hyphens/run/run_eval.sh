#!/bin/bash
# weekly eval
cd /work/wt-h46/tests/data/diagnosis_corpus/held_out/data_schema_builtin_labels_copied_from_hyphenated_web_page_carry_invisible_soft_hyphens/run
echo '== weekly eval'
echo "$(wc -l < string_match.jsonl) tasks"
/work/wt-h46/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h46/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:39791/v1 --env string_match --concurrency 4
/work/wt-h46/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
