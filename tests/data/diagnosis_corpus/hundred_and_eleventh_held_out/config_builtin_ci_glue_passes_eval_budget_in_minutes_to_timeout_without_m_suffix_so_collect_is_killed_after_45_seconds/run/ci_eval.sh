#!/bin/bash
# CI step of the nightly eval; the budget comes from the pipeline variables
cd /work/h111/tests/data/diagnosis_corpus/hundred_and_eleventh_held_out/config_builtin_ci_glue_passes_eval_budget_in_minutes_to_timeout_without_m_suffix_so_collect_is_killed_after_45_seconds/run
EVAL_BUDGET_MIN=${EVAL_BUDGET_MIN:-45}
echo "== eval budget: ${EVAL_BUDGET_MIN} min"
/work/h111/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
timeout ${EVAL_BUDGET_MIN} /work/h111/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38771/v1 --env string_match --concurrency 2
echo "collect exit: $?"
/work/h111/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
