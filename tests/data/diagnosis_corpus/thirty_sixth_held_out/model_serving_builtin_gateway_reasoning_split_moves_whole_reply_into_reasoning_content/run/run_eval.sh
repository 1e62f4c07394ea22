#!/bin/bash
# weekly eval
cd /work/wt-h36/tests/data/diagnosis_corpus/held_out/model_serving_builtin_gateway_reasoning_split_moves_whole_reply_into_reasoning_content/run
echo '== weekly eval, through the gateway'
/work/wt-h36/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h36/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:58579/v1 --env string_match --concurrency 4
/work/wt-h36/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
