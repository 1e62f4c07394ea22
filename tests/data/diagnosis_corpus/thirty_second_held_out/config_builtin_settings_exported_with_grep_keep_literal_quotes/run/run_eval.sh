#!/bin/bash
# weekly eval: settings from settings.env
cd /work/wt-h32/tests/data/diagnosis_corpus/held_out/config_builtin_settings_exported_with_grep_keep_literal_quotes/run
export $(grep -v '^#' settings.env)
echo "== weekly eval against $MODEL_URL"
/work/wt-h32/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h32/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL \
  --env string_match --concurrency 4
/work/wt-h32/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
