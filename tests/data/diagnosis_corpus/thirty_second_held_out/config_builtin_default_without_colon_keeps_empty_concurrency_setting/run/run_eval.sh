#!/bin/bash
# weekly eval: settings from settings.env, with defaults
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/config_builtin_default_without_colon_keeps_empty_concurrency_setting/run
source ./settings.env
echo "== weekly eval, $(date)"
/work/wt-h32/.venv/bin/gym-pipeline materialize --input string_match.jsonl --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl --num-repeats ${REPEATS-3}
/work/wt-h32/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:33883/v1 \
  --env string_match --concurrency ${CONCURRENCY-4}
/work/wt-h32/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
