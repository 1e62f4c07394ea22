#!/bin/bash
# weekly eval of the YAML answer key
cd /work/wt-h79/tests/data/diagnosis_corpus/seventy_ninth_held_out/data_schema_builtin_yaml_answer_key_left_unquoted_so_no_and_off_load_as_false_and_1_30_as_sexagesimal_90/run
/work/wt-h79/.venv/bin/python prep.py
/work/wt-h79/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h79/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38975/v1 --env string_match --concurrency 4
/work/wt-h79/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
