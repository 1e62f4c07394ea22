#!/bin/bash
# weekly eval: materialize, collect (once a week), profile
cd /work/h112/tests/data/diagnosis_corpus/hundred_and_twelfth_held_out/cache_resume_builtin_run_script_names_rollouts_by_iso_week_and_skips_collect_if_present_so_same_week_rerun_of_fixed_checkpoint_reuses_mornings/run
MODEL_URL=http://127.0.0.1:39699/v1
OUT=rollouts_$(date +%G-W%V).jsonl
/work/h112/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
if [ -s "$OUT" ]; then
  echo "rollouts for this week already collected ($OUT): skipping collect"
else
  /work/h112/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output $OUT --model-url $MODEL_URL --env string_match --concurrency 4
fi
/work/h112/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts $OUT
