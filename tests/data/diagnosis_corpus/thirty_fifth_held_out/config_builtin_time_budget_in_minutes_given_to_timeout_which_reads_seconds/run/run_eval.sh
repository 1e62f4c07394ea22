#!/bin/bash
# CI eval step: everything must finish within the step's time budget
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/config_builtin_time_budget_in_minutes_given_to_timeout_which_reads_seconds/run
source ./ci_settings.env
echo "== CI eval, budget $TIME_BUDGET"
/work/wt-h35/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
timeout $TIME_BUDGET /work/wt-h35/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \
  --model-url http://127.0.0.1:36741/v1 --env string_match --concurrency $CONCURRENCY
echo "collect exit $?"
/work/wt-h35/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
