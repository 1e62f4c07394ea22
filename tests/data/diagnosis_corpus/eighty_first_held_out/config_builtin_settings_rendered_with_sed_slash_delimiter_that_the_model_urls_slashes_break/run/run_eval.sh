#!/bin/bash
# weekly eval, settings from eval.env.in
cd /work/wt-h81/tests/data/diagnosis_corpus/eighty_first_held_out/config_builtin_settings_rendered_with_sed_slash_delimiter_that_the_model_urls_slashes_break/run
URL="http://127.0.0.1:44681/v1"   # this week's policy server (from the serve step)
sed "s/@MODEL_URL@/$URL/" eval.env.in > eval.env
source eval.env
echo "eval: model ${MODEL_URL:-http://127.0.0.1:8000/v1}, repeats ${REPEATS:-3}, concurrency ${CONCURRENCY:-4}"
/work/wt-h81/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats ${REPEATS:-3} --agent string_match_simple_agent \
  --output rollouts_materialized_inputs.jsonl
/work/wt-h81/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl \
  --model-url "${MODEL_URL:-http://127.0.0.1:8000/v1}" --env string_match --concurrency ${CONCURRENCY:-4}
/work/wt-h81/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
