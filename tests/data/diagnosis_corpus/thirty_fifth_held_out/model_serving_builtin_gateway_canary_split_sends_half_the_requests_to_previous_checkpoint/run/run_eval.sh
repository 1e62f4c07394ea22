#!/bin/bash
# weekly eval
cd /work/wt-h35/tests/data/diagnosis_corpus/held_out/model_serving_builtin_gateway_canary_split_sends_half_the_requests_to_previous_checkpoint/run
echo '== weekly eval of step_0200, through the gateway'
/work/wt-h35/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h35/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:56399/v1 --env string_match --concurrency 4
/work/wt-h35/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
