#!/bin/bash
# eval of one checkpoint: bash run_eval.sh MODEL_URL ; results in runs/<date> (resumes an interrupted run)
OUT=/work/wt-h33/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_run_folder_named_by_date_resumed_by_second_checkpoint_same_day/run/runs/$(date +%F)
mkdir -p $OUT && cd $OUT
echo "== eval of $1 into $OUT"
[ -f rollouts_materialized_inputs.jsonl ] || /work/wt-h33/.venv/bin/gym-pipeline materialize --input /work/wt-h33/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_run_folder_named_by_date_resumed_by_second_checkpoint_same_day/run/string_match.jsonl --num-repeats 3 \
  --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h33/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \
  --env string_match --concurrency 4 --resume
/work/wt-h33/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
