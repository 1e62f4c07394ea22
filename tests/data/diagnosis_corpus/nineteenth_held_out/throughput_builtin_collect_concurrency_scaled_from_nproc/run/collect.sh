#!/bin/bash
# one request per 1/16 core
CONCURRENCY=$(( $(nproc) * 16 ))
echo "collecting at concurrency $CONCURRENCY"
/work/wt-h19/.venv/bin/gym-pipeline collect --inputs /work/wt-h19/tests/data/diagnosis_corpus/held_out/throughput_builtin_collect_concurrency_scaled_from_nproc/run/rollouts_materialized_inputs.jsonl --output /work/wt-h19/tests/data/diagnosis_corpus/held_out/throughput_builtin_collect_concurrency_scaled_from_nproc/run/rollouts.jsonl --model-url http://127.0.0.1:46147/v1 --env string_match --concurrency $CONCURRENCY
