#!/bin/bash
# usage: run_eval.sh MODEL_URL   (collect once: a rerun after a crash only profiles again)
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_done_marker_from_last_weeks_run_skips_collect/run
if [ -f .collect_done ]; then
  echo "rollouts already collected (.collect_done): skipping materialize and collect"
else
  /work/wt-h29/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output rollouts_materialized_inputs.jsonl
  /work/wt-h29/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \
    --env string_match --concurrency 4 && touch .collect_done
fi
/work/wt-h29/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
