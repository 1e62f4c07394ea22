#!/bin/bash
# weekly eval: prep the review UI export, materialize, collect, profile
cd /work/h98/tests/data/diagnosis_corpus/ninety_eighth_held_out/data_schema_builtin_review_ui_export_html_escapes_ampersands_and_prep_copies_them_so_labels_read_amp_entity/run
/work/h98/.venv/bin/python prep.py export.json string_match.jsonl
/work/h98/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h98/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37865/v1 --env string_match --concurrency 4
/work/h98/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
