#!/bin/bash
# weekly eval
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/model_serving_builtin_gateway_caps_max_tokens_for_cost_control/run
echo '== weekly eval, through the gateway'
/work/wt-h35/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h35/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:41127/v1 --env string_match --concurrency 4
/work/wt-h35/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
