#!/bin/bash
# weekly eval: bash run_eval.sh MODEL_URL; results are kept per commit of the team's eval code (never evaluate twice)
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_results_folder_keyed_by_eval_repo_commit_reused_for_new_checkpoint/run
OUT=results/$(git -C /tmp/ho-cache_resume_builtin-awv99fk3/team-eval-code rev-parse --short HEAD)
mkdir -p $OUT
if [ -s $OUT/rollouts.jsonl ]; then
  echo "== $OUT already evaluated, reusing it"
else
  /work/wt-h35/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
    --output $OUT/rollouts_materialized_inputs.jsonl
  /work/wt-h35/.venv/bin/gym-pipeline collect --inputs $OUT/rollouts_materialized_inputs.jsonl --output $OUT/rollouts.jsonl --model-url $1 \
    --env string_match --concurrency 4
fi
/work/wt-h35/.venv/bin/gym-pipeline profile --inputs $OUT/rollouts_materialized_inputs.jsonl --rollouts $OUT/rollouts.jsonl
