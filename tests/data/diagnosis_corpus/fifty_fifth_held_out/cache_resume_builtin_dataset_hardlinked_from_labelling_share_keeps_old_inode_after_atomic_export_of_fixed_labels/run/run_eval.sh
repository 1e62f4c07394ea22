#!/bin/bash
# weekly eval
cd /work/wt-h55/tests/data/diagnosis_corpus/fifty_fifth_held_out/cache_resume_builtin_dataset_hardlinked_from_labelling_share_keeps_old_inode_after_atomic_export_of_fixed_labels/run
echo '== weekly eval (labels fixed on the share this week)'
/work/wt-h55/.venv/bin/gym-pipeline materialize --input data/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h55/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35533/v1 --env string_match --concurrency 4
/work/wt-h55/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
