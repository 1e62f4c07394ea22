#!/bin/bash
# weekly CI pipeline: data step (cached), then materialize, collect, profile
cd /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/cache_resume_builtin_ci_data_cache_keyed_on_hash_of_prep_py_alone_restores_last_weeks_dataset_after_labels_fix/run
bash /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/cache_resume_builtin_ci_data_cache_keyed_on_hash_of_prep_py_alone_restores_last_weeks_dataset_after_labels_fix/run/ci_prep.sh /work/wt-h85/tests/data/diagnosis_corpus/eighty_fifth_held_out/cache_resume_builtin_ci_data_cache_keyed_on_hash_of_prep_py_alone_restores_last_weeks_dataset_after_labels_fix/run
/work/wt-h85/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h85/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35899/v1 --env string_match --concurrency 4
/work/wt-h85/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
