#!/bin/bash
# eval of the reviewed questions
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/data_schema_builtin_review_export_writes_reviewed_flag_as_text_false/run
python3 prep_data.py review_export.jsonl tasks.jsonl
/work/wt-h29/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h29/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41701/v1 --env string_match --concurrency 4
/work/wt-h29/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
