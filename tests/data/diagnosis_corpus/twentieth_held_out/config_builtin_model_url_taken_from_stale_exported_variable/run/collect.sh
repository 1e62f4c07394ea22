#!/bin/bash
# collect step_0200 (served since this morning)
MODEL_URL=${MODEL_URL:-http://127.0.0.1:46261/v1}
echo "model server: $MODEL_URL"
/work/wt-h20/.venv/bin/gym-pipeline collect --inputs /work/wt-h20/tests/data/diagnosis_corpus/held_out/config_builtin_model_url_taken_from_stale_exported_variable/run/rollouts_materialized_inputs.jsonl --output /work/wt-h20/tests/data/diagnosis_corpus/held_out/config_builtin_model_url_taken_from_stale_exported_variable/run/rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency 4
