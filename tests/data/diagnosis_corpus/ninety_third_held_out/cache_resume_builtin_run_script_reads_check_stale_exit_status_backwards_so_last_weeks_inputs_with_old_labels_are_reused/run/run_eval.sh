#!/bin/bash
# weekly eval in the CI workspace
cd /work/h93/tests/data/diagnosis_corpus/ninety_third_held_out/cache_resume_builtin_run_script_reads_check_stale_exit_status_backwards_so_last_weeks_inputs_with_old_labels_are_reused/run
rm -f rollouts.jsonl rollouts_failures.jsonl
# re-materialize only when the inputs no longer match the dataset (gym-pipeline check-stale)
if /work/h93/.venv/bin/gym-pipeline check-stale --inputs rollouts_materialized_inputs.jsonl --source string_match.jsonl --num-repeats 3 \
    --agent string_match_simple_agent; then
  echo "inputs stale: re-materializing"
  /work/h93/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output rollouts_materialized_inputs.jsonl
else
  echo "inputs up to date: reusing them"
fi
/work/h93/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:43829/v1 \
  --env string_match --concurrency 4
/work/h93/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
