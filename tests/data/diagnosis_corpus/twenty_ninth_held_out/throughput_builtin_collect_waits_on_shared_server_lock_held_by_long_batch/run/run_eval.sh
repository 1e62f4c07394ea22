#!/bin/bash
# CI eval step (20 s budget for the collection). The team's rule: one eval at a time against the shared model
# server, serialised with flock on locks/shared_model_server.lock
cd /work/wt-h29/tests/data/diagnosis_corpus/held_out/throughput_builtin_collect_waits_on_shared_server_lock_held_by_long_batch/run
/work/wt-h29/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
timeout 20 flock locks/shared_model_server.lock /work/wt-h29/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl \
  --output rollouts.jsonl --model-url http://127.0.0.1:34383/v1 --env string_match --concurrency 4
echo "collect exited $?"
/work/wt-h29/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
