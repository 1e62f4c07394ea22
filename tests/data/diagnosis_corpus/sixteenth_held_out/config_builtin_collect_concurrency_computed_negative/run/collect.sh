#!/bin/bash
# keep 4 cores free for the model server
CONC=$(( $(nproc) - 4 ))
echo "concurrency: $CONC"
/work/wt-h16/.venv/bin/gym-pipeline collect --inputs /work/wt-h16/tests/data/diagnosis_corpus/held_out/config_builtin_collect_concurrency_computed_negative/run/rollouts_materialized_inputs.jsonl --output /work/wt-h16/tests/data/diagnosis_corpus/held_out/config_builtin_collect_concurrency_computed_negative/run/rollouts.jsonl --model-url http://127.0.0.1:32889/v1 --env string_match --concurrency "$CONC"
