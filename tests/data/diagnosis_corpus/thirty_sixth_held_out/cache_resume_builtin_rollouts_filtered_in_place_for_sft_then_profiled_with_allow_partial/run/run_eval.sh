#!/bin/bash
# weekly eval of step_0100: collect only (the report is made by report.sh)
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_rollouts_filtered_in_place_for_sft_then_profiled_with_allow_partial/run
/work/wt-h36/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 4 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h36/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:38051/v1 \
  --env string_match --concurrency 4
