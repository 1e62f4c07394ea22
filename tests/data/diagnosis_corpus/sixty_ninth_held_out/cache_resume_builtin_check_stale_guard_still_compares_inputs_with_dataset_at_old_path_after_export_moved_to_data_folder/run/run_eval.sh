#!/bin/bash
# weekly eval; the materialized inputs are kept while they still match the data (check-stale)
cd /work/wt-h69/tests/data/diagnosis_corpus/sixty_ninth_held_out/cache_resume_builtin_check_stale_guard_still_compares_inputs_with_dataset_at_old_path_after_export_moved_to_data_folder/run
rm -f rollouts.jsonl rollouts_failures.jsonl
echo "== are the materialized inputs still this week's data?"
if /work/wt-h69/.venv/bin/gym-pipeline check-stale --inputs rollouts_materialized_inputs.jsonl --source string_match.jsonl --num-repeats 3 \
    --agent string_match_simple_agent; then
  echo 'inputs up to date: keeping them'
else
  echo 'inputs are stale: materializing again'
  /work/wt-h69/.venv/bin/gym-pipeline materialize --input data/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output rollouts_materialized_inputs.jsonl
fi
/work/wt-h69/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:44349/v1 \
  --env string_match --concurrency 4
/work/wt-h69/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
