#!/bin/bash
# weekly eval
cd /work/wt-h33/tests/data/diagnosis_corpus/held_out/config_builtin_smoke_test_switch_zero_is_nonempty_so_smoke_branch_runs/run
source ./settings.env
DATA=string_match.jsonl
if [ -n "$SMOKE_TEST" ]; then
  echo "smoke test: first 2 tasks only"
  head -n 2 string_match.jsonl > smoke.jsonl
  DATA=smoke.jsonl
fi
/work/wt-h33/.venv/bin/gym-pipeline materialize --input $DATA --num-repeats $REPEATS --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h33/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \
  --env string_match --concurrency 4
/work/wt-h33/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
