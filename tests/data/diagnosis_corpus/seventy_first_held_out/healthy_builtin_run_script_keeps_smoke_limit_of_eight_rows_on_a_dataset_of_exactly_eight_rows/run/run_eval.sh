#!/bin/bash
# weekly eval
cd /work/wt-h71/tests/data/diagnosis_corpus/seventy_first_held_out/healthy_builtin_run_script_keeps_smoke_limit_of_eight_rows_on_a_dataset_of_exactly_eight_rows/run
LIMIT=8   # smoke test: first rows only
echo "materialize: limited to the first $LIMIT rows"
/work/wt-h71/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --limit $LIMIT --output rollouts_materialized_inputs.jsonl
/work/wt-h71/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44193/v1 --env string_match --concurrency 4
/work/wt-h71/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
