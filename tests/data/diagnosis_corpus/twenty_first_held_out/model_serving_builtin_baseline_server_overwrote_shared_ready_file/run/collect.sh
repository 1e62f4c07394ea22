#!/bin/bash
# collect the candidate checkpoint
MODEL_URL=$(cat /tmp/ho-model_serving_builti-j15_d2ax/model_url)
echo "model server: $MODEL_URL"
/work/wt-h21/.venv/bin/gym-pipeline collect --inputs /work/wt-h21/tests/data/diagnosis_corpus/held_out/model_serving_builtin_baseline_server_overwrote_shared_ready_file/run/rollouts_materialized_inputs.jsonl --output /work/wt-h21/tests/data/diagnosis_corpus/held_out/model_serving_builtin_baseline_server_overwrote_shared_ready_file/run/rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
