#!/bin/bash
# weekly eval (CI job; each step has its own time budget)
cd /work/wt-h66/tests/data/diagnosis_corpus/sixty_sixth_held_out/throughput_builtin_collect_concurrency_one_from_ordering_debug_cannot_finish_within_ci_step_timeout/run
source eval_settings.sh
/work/wt-h66/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
timeout 25 /work/wt-h66/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:35799/v1 --env string_match --concurrency $CONCURRENCY
echo "collect step exit: $?"
/work/wt-h66/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
