#!/bin/bash
# weekly eval in the reused run folder
cd /work/wt-h67/tests/data/diagnosis_corpus/sixty_seventh_held_out/healthy_builtin_run_script_check_stale_flags_last_weeks_inputs_then_rematerializes_before_collect/run
echo "== is last week's materialized input still this week's data?"
if /work/wt-h67/.venv/bin/gym-pipeline check-stale --inputs rollouts_materialized_inputs.jsonl --source string_match.jsonl --num-repeats 3 \
    --agent string_match_simple_agent; then
  echo 'inputs up to date: keeping them'
else
  echo 'inputs are stale: materializing again'
  /work/wt-h67/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output rollouts_materialized_inputs.jsonl
fi
rm -f rollouts.jsonl rollouts_failures.jsonl
/work/wt-h67/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:37585/v1 \
  --env string_match --concurrency 4
/work/wt-h67/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
