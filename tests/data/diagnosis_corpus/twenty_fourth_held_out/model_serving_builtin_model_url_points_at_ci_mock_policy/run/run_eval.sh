#!/bin/bash
# weekly eval of the current checkpoint
cd /work/wt-h24/tests/data/diagnosis_corpus/held_out/model_serving_builtin_model_url_points_at_ci_mock_policy/run
source eval.env
echo "model server: $MODEL_URL"
/work/wt-h24/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats $REPEATS --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h24/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url $MODEL_URL --env string_match --concurrency $CONCURRENCY
/work/wt-h24/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
