#!/bin/bash
# CI eval step: 20 s budget for the collection
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/throughput_builtin_gateway_resends_requests_slower_than_its_one_second_timeout/run
/work/wt-h32/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
timeout 20 /work/wt-h32/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:36575/v1 \
  --env string_match --concurrency 8
echo "collect exited $?"
/work/wt-h32/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
