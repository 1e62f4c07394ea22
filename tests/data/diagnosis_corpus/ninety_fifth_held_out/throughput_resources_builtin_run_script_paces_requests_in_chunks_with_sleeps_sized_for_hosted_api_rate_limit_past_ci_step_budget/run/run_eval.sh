#!/bin/bash
# weekly eval (the CI step runs it under `timeout 75`)
cd /work/h95/tests/data/diagnosis_corpus/ninety_fifth_held_out/throughput_resources_builtin_run_script_paces_requests_in_chunks_with_sleeps_sized_for_hosted_api_rate_limit_past_ci_step_budget/run
# the hosted API allowed 12 requests a minute: send the eval in chunks of 2 tasks (6 requests), 30 s apart
rm -rf chunks && mkdir -p chunks
split -l 2 -d string_match.jsonl chunks/part_
for part in chunks/part_??; do
  mkdir -p $part.d
  /work/h95/.venv/bin/gym-pipeline materialize --input $part --num-repeats 3 --agent string_match_simple_agent \
    --output $part.d/rollouts_materialized_inputs.jsonl
  /work/h95/.venv/bin/gym-pipeline collect --inputs $part.d/rollouts_materialized_inputs.jsonl --output $part.d/rollouts.jsonl \
    --model-url http://127.0.0.1:38215/v1 --env string_match --concurrency 4
  echo "$part done; pausing 30 s for the rate limit"
  sleep 30
done
cat chunks/part_??.d/rollouts_materialized_inputs.jsonl > rollouts_materialized_inputs.jsonl
cat chunks/part_??.d/rollouts.jsonl > rollouts.jsonl
/work/h95/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
