#!/bin/bash
# usage: run_eval.sh WEEK MODEL_URL   (evaluates only the tasks not evaluated before: see select_new.py)
cd /work/wt-h28/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_incremental_eval_list_skips_tasks_seen_by_last_checkpoint/run
python3 select_new.py string_match.jsonl evaluated_prompts.txt $1/tasks.jsonl
cd $1
/work/wt-h28/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h28/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $2 \
  --env string_match --concurrency 4
/work/wt-h28/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
