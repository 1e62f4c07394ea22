#!/bin/bash
# weekly eval; safe to run again after an interruption (skips what is already done)
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_done_check_compares_rollout_lines_with_task_count/run
TASKS=$(wc -l < string_match.jsonl)
[ -f rollouts_materialized_inputs.jsonl ] || /work/wt-h24/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 \
  --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
if [ -f rollouts.jsonl ] && [ $(wc -l < rollouts.jsonl) -ge $TASKS ]; then
  echo "run_eval.sh: rollouts.jsonl complete ($(wc -l < rollouts.jsonl) lines for $TASKS tasks), skipping the collection"
else
  /work/wt-h24/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $(cat model_url.txt) \
    --env string_match --concurrency 1
fi
/work/wt-h24/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
