#!/bin/bash
# weekly eval (materialized inputs cached by eval.py)
cd /work/h114/tests/data/diagnosis_corpus/hundred_and_fourteenth_held_out/cache_resume_builtin_driver_caches_materialized_inputs_keyed_on_dataset_byte_size_so_same_length_label_fix_reuses_old_labels/run
/work/h114/.venv/bin/python eval.py string_match.jsonl http://127.0.0.1:35693/v1
