#!/bin/bash
# weekly eval: prep the export, then run
cd /work/h115/tests/data/diagnosis_corpus/hundred_and_fifteenth_held_out/data_schema_builtin_labelling_app_on_mac_exports_answers_in_decomposed_unicode_nfd_so_accented_labels_never_equal_the_models_nfc_answers/run
/work/h115/.venv/bin/python prep.py
/work/h115/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/h115/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:40039/v1 --env string_match --concurrency 4
/work/h115/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
