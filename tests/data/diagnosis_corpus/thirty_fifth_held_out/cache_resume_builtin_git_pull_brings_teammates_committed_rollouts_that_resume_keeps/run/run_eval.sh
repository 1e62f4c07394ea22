#!/bin/bash
# weekly eval: bash run_eval.sh MODEL_URL; the eval repo is shared with the team, results are committed to it
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_git_pull_brings_teammates_committed_rollouts_that_resume_keeps/run/eval-repo
git pull -q origin main
/work/wt-h35/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output results/rollouts_materialized_inputs.jsonl
# --resume: a preempted run picks up where it stopped
/work/wt-h35/.venv/bin/gym-pipeline collect --inputs results/rollouts_materialized_inputs.jsonl --output results/rollouts.jsonl --model-url $1 \
  --env string_match --concurrency 4 --resume
/work/wt-h35/.venv/bin/gym-pipeline profile --inputs results/rollouts_materialized_inputs.jsonl --rollouts results/rollouts.jsonl
