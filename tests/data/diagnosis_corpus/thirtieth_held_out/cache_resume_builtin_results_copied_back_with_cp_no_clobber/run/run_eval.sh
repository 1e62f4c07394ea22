#!/bin/bash
# weekly eval: run on the node's fast local disk, then copy the results to the shared results folder
cd /work/wt-h30/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_results_copied_back_with_cp_no_clobber/run
SCRATCH=$(mktemp -d /tmp/eval-XXXXXX)
cd $SCRATCH
/work/wt-h30/.venv/bin/gym-pipeline materialize --input /work/wt-h30/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_results_copied_back_with_cp_no_clobber/run/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h30/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \
  --env string_match --concurrency 4
/work/wt-h30/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
mkdir -p /work/wt-h30/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_results_copied_back_with_cp_no_clobber/run/results
cp -n $SCRATCH/*.jsonl /work/wt-h30/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_results_copied_back_with_cp_no_clobber/run/results/   # -n: never overwrite anything by accident
echo "results copied to /work/wt-h30/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_results_copied_back_with_cp_no_clobber/run/results"
rm -rf $SCRATCH
