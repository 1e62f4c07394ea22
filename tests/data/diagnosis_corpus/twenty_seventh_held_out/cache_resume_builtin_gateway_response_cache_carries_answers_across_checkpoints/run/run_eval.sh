#!/bin/bash
# usage: run_eval.sh WEEK   (the weekly eval, through the team's gateway)
mkdir -p /work/wt-h27/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_gateway_response_cache_carries_answers_across_checkpoints/run/$1 && cd /work/wt-h27/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_gateway_response_cache_carries_answers_across_checkpoints/run/$1
/work/wt-h27/.venv/bin/gym-pipeline materialize --input /work/wt-h27/tests/data/diagnosis_corpus/held_out/cache_resume_builtin_gateway_response_cache_carries_answers_across_checkpoints/run/string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h27/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:49403/v1 \
  --env string_match --concurrency 4
/work/wt-h27/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
