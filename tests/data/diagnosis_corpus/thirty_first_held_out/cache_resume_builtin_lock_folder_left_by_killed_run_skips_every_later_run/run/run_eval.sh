#!/bin/bash
# weekly eval; eval.lock keeps two evals from running at once in this folder
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_lock_folder_left_by_killed_run_skips_every_later_run/run
if ! mkdir eval.lock 2>/dev/null; then
  echo "another eval is running here (eval.lock exists): skipping this run"
  exit 0
fi
trap 'rmdir eval.lock' EXIT
/work/wt-h31/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h31/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \
  --env string_match --concurrency 2
/work/wt-h31/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
