#!/bin/bash
# weekly eval: prepare (cached), collect, profile
cd /work/h108/tests/data/diagnosis_corpus/hundred_and_eighth_held_out/cache_resume_builtin_prep_cache_keys_materialized_inputs_by_md5_of_first_4_kib_so_label_fixes_further_down_reuse_old_inputs/run
/work/h108/.venv/bin/python prep.py 2
/work/h108/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:43177/v1 --env string_match --concurrency 8
/work/h108/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
