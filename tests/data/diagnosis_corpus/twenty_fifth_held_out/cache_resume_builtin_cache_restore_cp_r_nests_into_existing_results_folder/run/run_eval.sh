#!/bin/bash
# usage: run_eval.sh CHECKPOINT MODEL_URL
# results go to results/; a partial run of CHECKPOINT left by a preempted job is restored from cache/ and resumed
cd /work/wt-h25/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_cache_restore_cp_r_nests_into_existing_results_folder/run
CKPT=$1
URL=$2
mkdir -p results
if [ -d cache/$CKPT ]; then
  echo "restoring the partial run of $CKPT from cache/$CKPT"
  cp -r cache/$CKPT results
fi
[ -f results/rollouts_materialized_inputs.jsonl ] || /work/wt-h25/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 \
  --agent string_match_simple_agent --output results/rollouts_materialized_inputs.jsonl
/work/wt-h25/.venv/bin/gym-pipeline collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl --model-url $URL \
  --env string_match --concurrency 4 --resume
/work/wt-h25/.venv/bin/gym-pipeline profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
echo "$CKPT" > results/CHECKPOINT
echo "run_eval.sh: results/ holds the eval of $CKPT"
