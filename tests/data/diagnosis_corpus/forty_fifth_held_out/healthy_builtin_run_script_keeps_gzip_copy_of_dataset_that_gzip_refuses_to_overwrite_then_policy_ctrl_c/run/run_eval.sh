#!/bin/bash
# weekly eval
cd /work/wt-h45/tests/data/diagnosis_corpus/held_out/healthy_builtin_run_script_keeps_gzip_copy_of_dataset_that_gzip_refuses_to_overwrite_then_policy_ctrl_c/run
echo '== weekly eval'
# keep a compressed copy of the tasks beside the results
gzip -k string_match.jsonl || echo '(compressed copy already there)'
/work/wt-h45/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h45/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:42335/v1 --env string_match --concurrency 4
/work/wt-h45/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
