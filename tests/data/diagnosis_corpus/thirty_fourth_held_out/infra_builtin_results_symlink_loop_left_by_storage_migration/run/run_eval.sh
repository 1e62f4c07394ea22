#!/bin/bash
# weekly eval: everything into results/
cd /work/wt-h34/tests/data/diagnosis_corpus/held_out/infra_builtin_results_symlink_loop_left_by_storage_migration/run
/work/wt-h34/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output results/rollouts_materialized_inputs.jsonl
/work/wt-h34/.venv/bin/gym-pipeline collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl --model-url http://127.0.0.1:45793/v1 --env string_match --concurrency 4
/work/wt-h34/.venv/bin/gym-pipeline profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
