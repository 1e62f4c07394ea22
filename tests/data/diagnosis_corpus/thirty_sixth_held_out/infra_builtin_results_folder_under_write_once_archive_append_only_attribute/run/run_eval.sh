#!/bin/bash
# weekly eval, outputs straight into the archive
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/infra_builtin_results_folder_under_write_once_archive_append_only_attribute/run
echo '== weekly eval'
/work/wt-h36/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output results/rollouts_materialized_inputs.jsonl
/work/wt-h36/.venv/bin/gym-pipeline collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl --model-url http://127.0.0.1:37465/v1 --env string_match --concurrency 4
/work/wt-h36/.venv/bin/gym-pipeline profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
