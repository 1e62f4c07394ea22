#!/bin/bash
# MODEL_URL comes from the serving job's ready file
MODEL_URL=http://127.0.0.1:33719/v1
/work/wt-h15/.venv/bin/gym-pipeline collect --inputs /work/wt-h15/tests/data/diagnosis_corpus/held_out/config_builtin_model_url_with_doubled_v1/run/rollouts_materialized_inputs.jsonl --output /work/wt-h15/tests/data/diagnosis_corpus/held_out/config_builtin_model_url_with_doubled_v1/run/rollouts.jsonl --model-url "$MODEL_URL/v1" --env string_match --concurrency 2
