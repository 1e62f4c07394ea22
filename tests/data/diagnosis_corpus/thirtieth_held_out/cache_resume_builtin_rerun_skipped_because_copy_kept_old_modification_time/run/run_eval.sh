#!/bin/bash
# weekly eval: collect again only when the dataset changed since the last collection
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_rerun_skipped_because_copy_kept_old_modification_time/run
cp -p shared/tasks.jsonl tasks.jsonl   # the data team's current version
if [ ! -f rollouts.jsonl ] || [ tasks.jsonl -nt rollouts.jsonl ]; then
  /work/wt-h30/.venv/bin/gym-pipeline materialize --input tasks.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output rollouts_materialized_inputs.jsonl
  /work/wt-h30/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \
    --env string_match --concurrency 4
  /work/wt-h30/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
else
  echo "rollouts.jsonl is newer than tasks.jsonl: nothing to collect"
fi
