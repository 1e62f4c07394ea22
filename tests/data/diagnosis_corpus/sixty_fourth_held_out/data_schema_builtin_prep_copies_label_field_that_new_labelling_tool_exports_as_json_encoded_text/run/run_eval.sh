#!/bin/bash
# weekly eval of the labelling team's export
cd /work/wt-h64/tests/data/diagnosis_corpus/sixty_fourth_held_out/data_schema_builtin_prep_copies_label_field_that_new_labelling_tool_exports_as_json_encoded_text/run
/work/wt-h64/.venv/bin/python prep.py
/work/wt-h64/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h64/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:34771/v1 --env string_match --concurrency 4
/work/wt-h64/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
