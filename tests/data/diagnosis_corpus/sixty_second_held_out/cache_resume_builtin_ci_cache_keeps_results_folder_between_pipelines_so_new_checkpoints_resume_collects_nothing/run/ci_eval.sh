#!/bin/bash
# ci_eval.sh CHECKPOINT_URL: the eval job of the team's CI pipeline. The CI cache (key: the branch) keeps
# results/ between pipelines so that a retried job resumes instead of starting over.
URL=$1
cd /work/wt-h62/tests/data/diagnosis_corpus/sixty_second_held_out/cache_resume_builtin_ci_cache_keeps_results_folder_between_pipelines_so_new_checkpoints_resume_collects_nothing/run
CACHE=ci_cache/eval-main.tar
mkdir -p ci_cache results
if [ -f $CACHE ]; then tar xf $CACHE && echo "restored cache $CACHE"; fi
if [ ! -f results/rollouts_materialized_inputs.jsonl ]; then
  /work/wt-h62/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output results/rollouts_materialized_inputs.jsonl
fi
/work/wt-h62/.venv/bin/gym-pipeline collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl --model-url $URL \
  --env string_match --concurrency 4 --resume
/work/wt-h62/.venv/bin/gym-pipeline profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
tar cf $CACHE results && echo "saved cache $CACHE"
