#!/bin/bash
# weekly eval: prep the export, then run
cd /work/wt-h91/tests/data/diagnosis_corpus/ninety_first_held_out/healthy_builtin_prep_builds_rows_with_pool_imap_unordered_so_dataset_order_differs_from_export_but_labels_stay_paired/run
/work/wt-h91/.venv/bin/python prep.py
head -c 300 string_match.jsonl; echo
/work/wt-h91/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h91/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:46307/v1 --env string_match --concurrency 4
/work/wt-h91/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
