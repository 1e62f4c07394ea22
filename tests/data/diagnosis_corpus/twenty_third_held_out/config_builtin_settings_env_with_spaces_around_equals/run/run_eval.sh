#!/bin/bash
# weekly eval; settings in settings.env
cd /work/wt-h23/tests/data/diagnosis_corpus/held_out/config_builtin_settings_env_with_spaces_around_equals/run
source settings.env
REPEATS=${REPEATS:-1}
CONCURRENCY=${CONCURRENCY:-1}
echo "eval with $REPEATS repeat(s), concurrency $CONCURRENCY"
/work/wt-h23/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h23/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:45531/v1 --env string_match --concurrency $CONCURRENCY
/work/wt-h23/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
