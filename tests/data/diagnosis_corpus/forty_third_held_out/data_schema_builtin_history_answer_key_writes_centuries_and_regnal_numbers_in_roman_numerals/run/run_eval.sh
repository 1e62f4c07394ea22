#!/bin/bash
# weekly eval
cd /work/wt-h43/tests/data/diagnosis_corpus/held_out/data_schema_builtin_history_answer_key_writes_centuries_and_regnal_numbers_in_roman_numerals/run
echo '== weekly eval'
python3 prepare_data.py
/work/wt-h43/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h43/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40119/v1 --env string_match --concurrency 4
/work/wt-h43/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
