#!/bin/bash
# weekly eval: prep the export, then run
cd /work/h113/tests/data/diagnosis_corpus/hundred_and_thirteenth_held_out/data_schema_builtin_labelling_tool_export_turned_answer_into_multi_value_list_and_prep_casts_it_with_str_so_labels_read_bracketed_lists/run
/work/h113/.venv/bin/python prep.py
/work/h113/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h113/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35637/v1 --env string_match --concurrency 4
/work/h113/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
