#!/bin/bash
# CI eval step: 20 s budget for the collection
cd /work/wt-h31/tests/data/diagnosis_corpus/held_out/throughput_builtin_gateway_replays_shadow_copies_of_every_request/run
/work/wt-h31/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
timeout 20 /work/wt-h31/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:56843/v1 \
  --env string_match --concurrency 8
echo "collect exited $?"
/work/wt-h31/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
