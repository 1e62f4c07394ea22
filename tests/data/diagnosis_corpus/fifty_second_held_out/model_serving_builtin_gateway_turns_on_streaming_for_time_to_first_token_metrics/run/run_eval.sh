#!/bin/bash
# weekly eval
cd /work/wt-h52/tests/data/diagnosis_corpus/held_out/model_serving_builtin_gateway_turns_on_streaming_for_time_to_first_token_metrics/run
echo '== weekly eval, through the team gateway'
/work/wt-h52/.venv/bin/gym-pipeline materialize --input string_match.jsonl --num-repeats 3 --agent string_match_simple_agent --output rollouts_materialized_inputs.jsonl
/work/wt-h52/.venv/bin/gym-pipeline collect --inputs rollouts_materialized_inputs.jsonl --output rollouts.jsonl --model-url http://127.0.0.1:48417/v1 --env string_match --concurrency 4
/work/wt-h52/.venv/bin/gym-pipeline profile --inputs rollouts_materialized_inputs.jsonl --rollouts rollouts.jsonl
