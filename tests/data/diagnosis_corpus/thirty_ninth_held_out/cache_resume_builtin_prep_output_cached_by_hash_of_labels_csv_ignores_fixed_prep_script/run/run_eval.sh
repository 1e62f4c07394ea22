#!/bin/bash
# weekly eval
cd /work/wt-h39/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_prep_output_cached_by_hash_of_labels_csv_ignores_fixed_prep_script/run
echo '== weekly eval'
bash /work/wt-h39/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_prep_output_cached_by_hash_of_labels_csv_ignores_fixed_prep_script/run/prepare.sh
/work/wt-h39/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h39/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35743/v1 --env string_match --concurrency 4
/work/wt-h39/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
