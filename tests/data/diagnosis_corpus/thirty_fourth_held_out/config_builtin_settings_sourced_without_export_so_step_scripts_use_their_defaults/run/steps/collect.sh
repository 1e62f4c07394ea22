#!/bin/bash
# collect step: bash steps/collect.sh MODEL_URL
/work/wt-h34/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $1 \
  --env string_match --concurrency ${CONCURRENCY:-4}
