#!/bin/bash
# weekly eval: bash run_eval.sh STEP MODEL_URL
# --resume: the eval nodes are preemptible, a restarted job goes on where it stopped
cd /work/h97/tests/data/diagnosis_corpus/ninety_seventh_held_out/cache_resume_builtin_run_script_always_resumes_into_output_named_after_dataset_so_new_checkpoint_keeps_last_steps_rollouts/run
STEP=$1
MODEL_URL=$2
OUT=string_match_rollouts.jsonl
echo "== evaluating $STEP at $MODEL_URL"
/work/h97/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/h97/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output $OUT --model-url $MODEL_URL \
  --env string_match --concurrency 4 --resume
/work/h97/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts $OUT
echo "$STEP: $(wc -l < $OUT) rollouts in $OUT"
